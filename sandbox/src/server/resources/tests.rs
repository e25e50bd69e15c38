#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use super::*;
use serde_json::json;

mod answers;
mod durable;
mod fill;
mod made;
mod shown;
mod times;
mod wrapped;

const FIELDS: &[FieldSchema] = &[
    field("id", Ty::String, true),
    FieldSchema {
        min_len: Some(3),
        ..field("name", Ty::String, true)
    },
    FieldSchema {
        format: Some(Format::Email),
        ..field("owner", Ty::String, true)
    },
    field("status", Ty::Named("Status"), true),
    field("count", Ty::Integer, false),
    field("created_at", Ty::DateTime, true),
];

pub(crate) const fn field(name: &'static str, ty: Ty, required: bool) -> FieldSchema {
    FieldSchema {
        required,
        ..FieldSchema::new(name, ty)
    }
}

const SCHEMA: ServiceSchema = ServiceSchema {
    types: &[
        TypeSchema {
            name: "Domain",
            keeps_other_keys: false,
            shape: ShapeSchema::Object(FIELDS),
        },
        TypeSchema {
            name: "Status",
            keeps_other_keys: false,
            shape: ShapeSchema::Enum(&["pending", "verified"]),
        },
    ],
    page: Some(PageSchema {
        limit_param: "limit",
        after_param: "after",
        before_param: None,
        items_field: "data",
        has_more_field: "has_more",
    }),
};

fn op(kind: ResourceAction, item: bool) -> ResourceOp {
    ResourceOp {
        name: "op",
        kind,
        collection: "/v1/domains",
        item_param: item.then_some("id"),
        item_field: None,
        id_field: "id",
        response: Some(if kind == ResourceAction::List {
            Ty::Page(&Ty::Named("Domain"))
        } else {
            Ty::Named("Domain")
        }),
        items: None,
        filters: &[],
    }
}

fn call(id: Option<&str>, query: Value, body: Value) -> ResourceCall {
    ResourceCall {
        merge_nested: false,
        path: id.map(|i| ("id", i.to_owned())).into_iter().collect(),
        query,
        body,
        named_as: None,
        sendable: None,
        read_as: None,
        item_path: None,
        keeps_made: false,
        names_made: None,
    }
}

#[test]
fn create_fills_required_fields_from_type_format_and_enum() {
    let store = Resources::default();
    let created = store
        .serve_now(
            &SCHEMA,
            &op(ResourceAction::Create, false),
            &call(None, Value::Null, json!({"count": 2})),
        )
        .unwrap();
    assert_eq!(created["count"], 2);
    assert_eq!(created["name"], "name");
    assert_eq!(created["owner"], "sample@example.com");
    assert_eq!(created["status"], "pending");
    assert!(created["created_at"].as_str().unwrap().ends_with('Z'));
    assert!(created["id"].as_str().unwrap().starts_with("res_"));
}

#[test]
fn created_items_come_back_from_get_list_merge_and_delete() {
    let store = Resources::default();
    let create = op(ResourceAction::Create, false);
    let a = store
        .serve_now(
            &SCHEMA,
            &create,
            &call(None, Value::Null, json!({"name": "a.example"})),
        )
        .unwrap();
    let b = store
        .serve_now(
            &SCHEMA,
            &create,
            &call(None, Value::Null, json!({"name": "b.example"})),
        )
        .unwrap();
    let (a_id, b_id) = (a["id"].as_str().unwrap(), b["id"].as_str().unwrap());
    let got = store
        .serve_now(
            &SCHEMA,
            &op(ResourceAction::Get, true),
            &call(Some(a_id), Value::Null, Value::Null),
        )
        .unwrap();
    assert_eq!(got, a);
    let list = op(ResourceAction::List, false);
    let page = store
        .serve_now(
            &SCHEMA,
            &list,
            &call(None, json!({"limit": 1}), Value::Null),
        )
        .unwrap();
    assert_eq!(page["data"][0]["name"], "a.example");
    assert_eq!(page["has_more"], true);
    let page = store
        .serve_now(
            &SCHEMA,
            &list,
            &call(None, json!({"after": a_id}), Value::Null),
        )
        .unwrap();
    assert_eq!(page["data"][0]["id"], b_id);
    assert_eq!(page["has_more"], false);
    let merged = store
        .serve_now(
            &SCHEMA,
            &op(ResourceAction::Merge, true),
            &call(Some(a_id), Value::Null, json!({"status": "verified"})),
        )
        .unwrap();
    assert_eq!(
        (merged["status"].as_str(), merged["name"].as_str()),
        (Some("verified"), Some("a.example"))
    );
    store
        .serve_now(
            &SCHEMA,
            &op(ResourceAction::Delete, true),
            &call(Some(a_id), Value::Null, Value::Null),
        )
        .unwrap();
    let gone = store
        .serve_now(
            &SCHEMA,
            &op(ResourceAction::Get, true),
            &call(Some(a_id), Value::Null, Value::Null),
        )
        .unwrap_err();
    assert_eq!(gone.status(), 404);
    assert_eq!(store.len(), 1);
}

#[test]
fn a_full_collection_answers_409_collection_full_and_keeps_serving_reads() {
    let store = Resources::new(ResourceLimits {
        max_items_per_collection: 2,
        ..ResourceLimits::default()
    });
    let create = op(ResourceAction::Create, false);
    for _ in 0..2 {
        store
            .serve_now(&SCHEMA, &create, &call(None, Value::Null, json!({})))
            .unwrap();
    }
    let err = store
        .serve_now(&SCHEMA, &create, &call(None, Value::Null, json!({})))
        .unwrap_err();
    assert_eq!((err.status(), err.code()), (409, "collection_full"));
    assert!(
        err.message().contains("at most 2 items in `/v1/domains`"),
        "{}",
        err.message()
    );
    assert_eq!(store.len(), 2);
}

#[test]
fn a_list_body_creates_each_item_keyed_by_the_id_it_gives_all_or_none() {
    let store = Resources::new(ResourceLimits {
        max_items_per_collection: 3,
        ..ResourceLimits::default()
    });
    let create = op(ResourceAction::Create, false);
    let body = json!([{"id": "a.example", "count": 1}, {"id": "b.example"}]);
    store
        .serve_now(&SCHEMA, &create, &call(None, Value::Null, body))
        .unwrap();
    let got = store
        .serve_now(
            &SCHEMA,
            &op(ResourceAction::Get, true),
            &call(Some("a.example"), Value::Null, Value::Null),
        )
        .unwrap();
    assert_eq!(
        (got["id"].as_str(), got["count"].as_i64()),
        (Some("a.example"), Some(1))
    );
    // Two more do not fit beside two: neither is kept.
    let err = store
        .serve_now(
            &SCHEMA,
            &create,
            &call(
                None,
                Value::Null,
                json!([{"id": "c.example"}, {"id": "d.example"}]),
            ),
        )
        .unwrap_err();
    assert_eq!((err.status(), err.code()), (409, "collection_full"));
    assert!(
        err.message().contains("2 more do not fit beside 2"),
        "{}",
        err.message()
    );
    assert_eq!(store.len(), 2);
    let err = store
        .serve_now(&SCHEMA, &create, &call(None, Value::Null, json!([1])))
        .unwrap_err();
    assert_eq!(err.status(), 400);
    assert_eq!(store.len(), 2);
}

#[test]
fn the_byte_budget_bounds_the_whole_store() {
    let store = Resources::new(ResourceLimits {
        max_stored_bytes: 300,
        ..ResourceLimits::default()
    });
    let create = op(ResourceAction::Create, false);
    let big = json!({"name": "x".repeat(400)});
    let err = store
        .serve_now(&SCHEMA, &create, &call(None, Value::Null, big))
        .unwrap_err();
    assert_eq!(err.code(), "collection_full");
    assert!(store.is_empty());
}

#[test]
fn fill_respects_min_len_and_replaces_values_of_the_wrong_shape() {
    let value = fill(
        &SCHEMA,
        &Ty::Named("Domain"),
        Some(&json!({"count": "many", "extra": 1})),
        0,
        None,
    );
    assert_eq!(value["count"], 0);
    assert_eq!(value["extra"], 1);
    let short = FieldSchema {
        min_len: Some(8),
        ..field("ab", Ty::String, true)
    };
    assert_eq!(
        fill(&SCHEMA, &Ty::String, None, 0, Some(&short)),
        "abxxxxxx"
    );
}

#[test]
fn an_action_on_a_stored_item_answers_with_its_fields() {
    let store = Resources::default();
    let a = store
        .serve_now(
            &SCHEMA,
            &op(ResourceAction::Create, false),
            &call(None, Value::Null, json!({"name": "kept.example"})),
        )
        .unwrap();
    let id = a["id"].as_str().unwrap();
    let action = op(ResourceAction::Action, true);
    let answer = store
        .serve_now(&SCHEMA, &action, &call(Some(id), Value::Null, Value::Null))
        .unwrap();
    assert_eq!(answer["name"], "kept.example");
    // An item the store does not have (served by hand-written code): still a valid answer.
    let answer = store
        .serve_now(
            &SCHEMA,
            &action,
            &call(Some("em_9"), Value::Null, Value::Null),
        )
        .unwrap();
    assert_eq!(answer["id"], "em_9");
}

#[test]
fn made_ids_fit_the_id_fields_length_bounds() {
    const SID: &[FieldSchema] = &[FieldSchema {
        min_len: Some(34),
        max_len: Some(34),
        pattern: None,
        default: None,
        ..field("sid", Ty::String, false)
    }];
    const SHORT: &[FieldSchema] = &[FieldSchema {
        max_len: Some(6),
        pattern: None,
        default: None,
        ..field("id", Ty::String, false)
    }];
    const IDS: ServiceSchema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "Message",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(SID),
            },
            TypeSchema {
                name: "Code",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(SHORT),
            },
        ],
        page: None,
    };
    let create = |name: &'static str, id_field: &'static str| ResourceOp {
        collection: "/things",
        id_field,
        response: Some(Ty::Named(name)),
        ..op(ResourceAction::Create, false)
    };
    let store = Resources::new(ResourceLimits::default());
    let sid = store
        .serve_now(
            &IDS,
            &create("Message", "sid"),
            &call(None, Value::Null, json!({})),
        )
        .unwrap()["sid"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(sid.len(), 34, "{sid}");
    assert_eq!(super::durable::id_number(&sid), Some(1), "{sid}");
    let code = store
        .serve_now(
            &IDS,
            &create("Code", "id"),
            &call(None, Value::Null, json!({})),
        )
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(code, "res_02");
    assert_eq!(super::durable::id_number(&code), Some(2));
}

/// Infobip's send: `{"bulkId": ..., "messages": [{"messageId": ..., "to": ...}]}`, one entry
/// per message sent, each with an id of its own.
mod sends {
    use super::*;

    const SENT: &[FieldSchema] = &[
        field("to", Ty::String, false),
        field("messageId", Ty::String, false),
    ];
    const ANSWER: &[FieldSchema] = &[
        field("bulkId", Ty::String, false),
        field("messages", Ty::List(&Ty::Named("Sent")), false),
    ];
    const SCHEMA: ServiceSchema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "Sent",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(SENT),
            },
            TypeSchema {
                name: "SendAnswer",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(ANSWER),
            },
        ],
        page: None,
    };

    #[test]
    fn a_send_answers_an_id_for_each_message_it_made() {
        let store = Resources::default();
        let send = ResourceOp {
            name: "send",
            kind: ResourceAction::Action,
            collection: "/sms/2/text/advanced",
            item_param: None,
            item_field: None,
            id_field: "bulkId",
            response: Some(Ty::Named("SendAnswer")),
            items: None,
            filters: &[],
        };
        let body = json!({"messages": [{"to": "41793026727"}, {"to": "41793026728"}]});
        let answer = store
            .serve_now(&SCHEMA, &send, &call(None, Value::Null, body))
            .unwrap();
        let ids: Vec<&str> = answer["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["messageId"].as_str().unwrap())
            .collect();
        assert_eq!(ids.len(), 2, "{answer}");
        assert_ne!(ids[0], ids[1]);
        assert!(answer["bulkId"].is_string());
        assert_eq!(answer["messages"][1]["to"], "41793026728");
    }

    const DETAILS: &[FieldSchema] = &[
        field("to", Ty::String, true),
        field("messageId", Ty::String, true),
    ];
    const EMAIL_ANSWER: &[FieldSchema] = &[
        field("bulkId", Ty::String, false),
        field("messages", Ty::List(&Ty::Named("Details")), true),
    ];
    const EMAIL: ServiceSchema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "Details",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(DETAILS),
            },
            TypeSchema {
                name: "EmailAnswer",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(EMAIL_ANSWER),
            },
        ],
        page: None,
    };

    /// Infobip's email send takes `to: [a, b]` and answers `messages: [{to: a, messageId},
    /// {to: b, messageId}]`: one entry per recipient (was none), each id made, not a sample.
    #[test]
    fn a_send_to_a_list_of_recipients_answers_one_entry_each() {
        let store = Resources::default();
        let send = ResourceOp {
            name: "send",
            kind: ResourceAction::Action,
            collection: "/email/3/send",
            item_param: None,
            item_field: None,
            id_field: "bulkId",
            response: Some(Ty::Named("EmailAnswer")),
            items: None,
            filters: &[],
        };
        let body = json!({"to": ["ada@example.com", "bob@example.com"], "from": "me@example.com"});
        let answer = store
            .serve_now(&EMAIL, &send, &call(None, Value::Null, body))
            .unwrap();
        let messages = answer["messages"].as_array().unwrap();
        let to: Vec<&str> = messages.iter().map(|m| m["to"].as_str().unwrap()).collect();
        assert_eq!(to, ["ada@example.com", "bob@example.com"], "{answer}");
        let ids: Vec<&str> = messages
            .iter()
            .map(|m| m["messageId"].as_str().unwrap())
            .collect();
        assert_ne!(ids[0], ids[1], "{answer}");
        assert!(ids.iter().all(|id| *id != "messageId"), "{answer}");
    }

    const RESULT: &[FieldSchema] = &[
        field("_id", Ty::String, true),
        FieldSchema {
            format: Some(Format::Email),
            ..field("email", Ty::String, true)
        },
        field("status", Ty::String, true),
    ];
    const RESULTS: ServiceSchema = ServiceSchema {
        types: &[TypeSchema {
            name: "Result",
            keeps_other_keys: false,
            shape: ShapeSchema::Object(RESULT),
        }],
        page: None,
    };

    /// Mandrill's `messages/send` takes its recipients one level down, as objects
    /// (`message.to: [{email, name}]`), and answers a bare list of results, one per recipient
    /// with its own `_id`: it answered one result with a made-up address (was).
    #[test]
    fn a_send_to_nested_recipients_answers_a_result_for_each() {
        let store = Resources::default();
        let send = ResourceOp {
            name: "messages_send",
            kind: ResourceAction::Action,
            collection: "/messages/send",
            item_param: None,
            item_field: None,
            id_field: "_id",
            response: Some(Ty::List(&Ty::Named("Result"))),
            items: None,
            filters: &[],
        };
        let body = json!({"key": "k", "message": {"text": "hi", "to": [
            {"email": "ada@example.com", "name": "Ada"},
            {"email": "bob@example.com", "type": "cc"},
        ]}});
        let answer = store
            .serve_now(&RESULTS, &send, &call(None, Value::Null, body))
            .unwrap();
        let results = answer.as_array().unwrap();
        let emails: Vec<&str> = results
            .iter()
            .map(|r| r["email"].as_str().unwrap())
            .collect();
        assert_eq!(emails, ["ada@example.com", "bob@example.com"], "{answer}");
        assert_ne!(results[0]["_id"], results[1]["_id"], "{answer}");
        assert!(
            results
                .iter()
                .all(|r| r.get("name").is_none() && r.get("key").is_none())
        );
        // A list of another kind (attachments, no address field in common) is no recipients.
        let body = json!({"attachments": [{"name": "a.txt"}]});
        let answer = store
            .serve_now(&RESULTS, &send, &call(None, Value::Null, body))
            .unwrap();
        assert_eq!(answer.as_array().unwrap().len(), 1, "{answer}");
    }
}

/// A nested collection's create: a path parameter named as a field of the item (case and `_`
/// aside: `OwnerName` ↔ `owner_name`) is that field's value, and a parent's `{id}` is never
/// the new item's id.
#[tokio::test]
async fn a_create_takes_the_fields_its_path_names_but_never_the_parents_id_as_its_own() {
    const NESTED: &[FieldSchema] = &[
        field("id", Ty::String, true),
        field("owner_name", Ty::String, true),
        field("title", Ty::String, true),
    ];
    const NESTED_SCHEMA: ServiceSchema = ServiceSchema {
        types: &[TypeSchema {
            name: "Note",
            keeps_other_keys: false,
            shape: ShapeSchema::Object(NESTED),
        }],
        page: None,
    };
    let create = ResourceOp {
        name: "create_note",
        kind: ResourceAction::Create,
        collection: "/owners/{OwnerName}/{id}/notes",
        item_param: None,
        item_field: None,
        id_field: "id",
        response: Some(Ty::Named("Note")),
        items: None,
        filters: &[],
    };
    let store = Resources::new(ResourceLimits::default());
    let call = ResourceCall {
        merge_nested: false,
        path: vec![
            ("OwnerName", "ada".to_owned()),
            ("id", "parent_7".to_owned()),
        ],
        query: Value::Null,
        body: json!({"title": "hello"}),
        named_as: None,
        sendable: None,
        read_as: None,
        item_path: None,
        keeps_made: false,
        names_made: None,
    };
    let made = store.serve(&NESTED_SCHEMA, &create, &call).await.unwrap();
    assert_eq!(made["owner_name"], "ada", "{made}");
    assert_eq!(made["title"], "hello");
    assert_ne!(made["id"], "parent_7", "{made}");
    // What the body sends wins over the path.
    let call = ResourceCall {
        merge_nested: false,
        body: json!({"title": "again", "owner_name": "grace"}),
        ..call
    };
    let made = store.serve(&NESTED_SCHEMA, &create, &call).await.unwrap();
    assert_eq!(made["owner_name"], "grace");
}

/// Created and listed under a parent, addressed on its own (Ably's `POST
/// /accounts/{account_id}/apps` and `PATCH /apps/{id}`): the item operations find it, change
/// it where it is (the parent's list shows the change), and an id held nowhere is still 404.
#[tokio::test]
async fn an_item_created_under_a_parent_is_found_by_its_own_path() {
    let nested = |kind, collection, item_param| ResourceOp {
        name: "op",
        kind,
        collection,
        item_param,
        item_field: None,
        id_field: "id",
        response: Some(Ty::Named("Domain")),
        items: None,
        filters: &[],
    };
    let create = nested(ResourceAction::Create, "/accounts/{account}/domains", None);
    let list = ResourceOp {
        response: Some(Ty::List(&Ty::Named("Domain"))),
        ..nested(ResourceAction::List, "/accounts/{account}/domains", None)
    };
    let in_account = ResourceCall {
        merge_nested: false,
        path: vec![("account", "acc1".to_owned())],
        query: Value::Null,
        body: json!({"name": "example.com", "owner": "a@example.com"}),
        named_as: None,
        sendable: None,
        read_as: None,
        item_path: None,
        keeps_made: false,
        names_made: None,
    };
    let store = Resources::default();
    let made = store.serve(&SCHEMA, &create, &in_account).await.unwrap();
    let id = made["id"].as_str().unwrap().to_owned();

    let get = nested(ResourceAction::Get, "/v1/domains", Some("id"));
    let merge = nested(ResourceAction::Merge, "/v1/domains", Some("id"));
    let delete = nested(ResourceAction::Delete, "/v1/domains", Some("id"));
    let got = store
        .serve(&SCHEMA, &get, &call(Some(&id), Value::Null, Value::Null))
        .await;
    assert_eq!(got.unwrap()["name"], "example.com");
    let changed = call(Some(&id), Value::Null, json!({"name": "renamed.example"}));
    store.serve(&SCHEMA, &merge, &changed).await.unwrap();
    let listed = store.serve(&SCHEMA, &list, &in_account).await.unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    assert_eq!(listed[0]["name"], "renamed.example", "{listed}");

    let nowhere = call(Some("dom_nope"), Value::Null, Value::Null);
    let nowhere = store.serve(&SCHEMA, &get, &nowhere).await.unwrap_err();
    assert_eq!(nowhere.status(), 404);
    store
        .serve(&SCHEMA, &delete, &call(Some(&id), Value::Null, Value::Null))
        .await
        .unwrap();
    let listed = store.serve(&SCHEMA, &list, &in_account).await.unwrap();
    assert_eq!(
        listed,
        json!([]),
        "the delete removed it from its parent's list"
    );
}

/// The other way round: an item path under a parent (`DELETE
/// /contacts/{contact}/domains/{id}`, a membership) never reaches the top-level collection of
/// the same name; the top-level item stays.
#[tokio::test]
async fn an_item_path_under_a_parent_never_touches_the_top_level_collection() {
    let store = Resources::default();
    let create = op(ResourceAction::Create, false);
    let body = json!({"name": "example.com", "owner": "a@example.com"});
    let made = store
        .serve(&SCHEMA, &create, &call(None, Value::Null, body))
        .await
        .unwrap();
    let id = made["id"].as_str().unwrap().to_owned();
    let membership = ResourceOp {
        collection: "/contacts/{contact}/domains",
        ..op(ResourceAction::Delete, true)
    };
    let under = ResourceCall {
        merge_nested: false,
        path: vec![("contact", "c1".to_owned()), ("id", id.clone())],
        query: Value::Null,
        body: Value::Null,
        named_as: None,
        sendable: None,
        read_as: None,
        item_path: None,
        keeps_made: false,
        names_made: None,
    };
    let refused = store.serve(&SCHEMA, &membership, &under).await.unwrap_err();
    assert_eq!(refused.status(), 404);
    let get = op(ResourceAction::Get, true);
    let kept = store
        .serve(&SCHEMA, &get, &call(Some(&id), Value::Null, Value::Null))
        .await;
    assert_eq!(kept.unwrap()["name"], "example.com");
}

/// A batch send (Resend's `POST /emails/batch`: a list body, answered `{"data": [{"id"},
/// ...]}`) answers one entry per thing sent, each with a fresh id.
#[test]
fn a_batch_answers_one_fresh_id_per_thing_sent() {
    const SENT: &[FieldSchema] = &[field("id", Ty::String, true)];
    const BATCH: &[FieldSchema] = &[field("data", Ty::List(&Ty::Named("Sent")), false)];
    const BATCH_SCHEMA: ServiceSchema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "Sent",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(SENT),
            },
            TypeSchema {
                name: "Batch",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(BATCH),
            },
        ],
        page: None,
    };
    let send = ResourceOp {
        name: "send_batch",
        kind: ResourceAction::Action,
        collection: "/emails/batch",
        item_param: None,
        item_field: None,
        id_field: "id",
        response: Some(Ty::Named("Batch")),
        items: None,
        filters: &[],
    };
    let store = Resources::default();
    let body = json!([{"to": "a@example.com"}, {"to": "b@example.com"}, {"to": "c@example.com"}]);
    let answer = store
        .serve_now(&BATCH_SCHEMA, &send, &call(None, Value::Null, body))
        .unwrap();
    let ids: Vec<&str> = answer["data"]
        .as_array()
        .unwrap_or_else(|| panic!("{answer}"))
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 3, "{answer}");
    assert!(ids[0] != ids[1] && ids[1] != ids[2], "{answer}");
}

/// A replace under a parent (Resend's `POST /contacts/{contact_id}/segments/{segment_id}`, a
/// membership) takes the parent's id from the path into the field of that name.
#[tokio::test]
async fn a_replace_takes_the_fields_its_path_names() {
    const MEMBER: &[FieldSchema] = &[
        field("segment_id", Ty::String, true),
        field("contact_id", Ty::String, false),
    ];
    const MEMBER_SCHEMA: ServiceSchema = ServiceSchema {
        types: &[TypeSchema {
            name: "Membership",
            keeps_other_keys: false,
            shape: ShapeSchema::Object(MEMBER),
        }],
        page: None,
    };
    let add = ResourceOp {
        name: "add_segment",
        kind: ResourceAction::Replace,
        collection: "/contacts/{contact_id}/segments",
        item_param: Some("segment_id"),
        item_field: None,
        id_field: "segment_id",
        response: Some(Ty::Named("Membership")),
        items: None,
        filters: &[],
    };
    let store = Resources::default();
    let call = ResourceCall {
        merge_nested: false,
        path: vec![
            ("contact_id", "ct_1".to_owned()),
            ("segment_id", "sg_1".to_owned()),
        ],
        query: Value::Null,
        body: Value::Null,
        named_as: None,
        sendable: None,
        read_as: None,
        item_path: None,
        keeps_made: false,
        names_made: None,
    };
    let made = store.serve(&MEMBER_SCHEMA, &add, &call).await.unwrap();
    assert_eq!(made["contact_id"], "ct_1", "{made}");
    assert_eq!(made["segment_id"], "sg_1", "{made}");
}
