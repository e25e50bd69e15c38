//! How the store shows what it holds: lists in the list's own item type, files by their facts,
//! an item inside a union field, text where the answer has an object.

use super::*;

/// Bandwidth's messages are created as `{id, to, text}` and listed as `{messageId,
/// destinationTn}`, filtered by `?messageId=`: the list showed the create's shape and the
/// filter found nothing (was); each item is of the list's type, its id in `messageId`.
#[test]
fn a_list_shows_its_item_type_and_filters_by_the_id_it_names() {
    const MADE: &[FieldSchema] = &[
        field("id", Ty::String, false),
        field("to", Ty::String, false),
        field("text", Ty::String, false),
    ];
    const LISTED: &[FieldSchema] = &[
        field("messageId", Ty::String, false),
        field("destinationTn", Ty::String, false),
    ];
    const LIST: &[FieldSchema] = &[
        field("messages", Ty::List(&Ty::Named("Listed")), false),
        field("totalCount", Ty::Integer, false),
    ];
    const MESSAGES: ServiceSchema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "Made",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(MADE),
            },
            TypeSchema {
                name: "Listed",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(LISTED),
            },
            TypeSchema {
                name: "List",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(LIST),
            },
        ],
        page: None,
    };
    let create = ResourceOp {
        name: "create_message",
        kind: ResourceAction::Create,
        collection: "/messages",
        item_param: None,
        item_field: None,
        id_field: "id",
        response: Some(Ty::Named("Made")),
        items: None,
        filters: &[],
    };
    let list = ResourceOp {
        name: "list_messages",
        kind: ResourceAction::List,
        id_field: "messageId",
        response: Some(Ty::Named("List")),
        items: Some("messages"),
        filters: &[("messageId", "messageId")],
        ..create
    };
    let store = Resources::default();
    let body = |to: &str| call(None, Value::Null, json!({"to": to, "text": "hi"}));
    let first = store.serve_now(&MESSAGES, &create, &body("+1")).unwrap();
    store.serve_now(&MESSAGES, &create, &body("+2")).unwrap();
    let all = store
        .serve_now(&MESSAGES, &list, &call(None, json!({}), Value::Null))
        .unwrap();
    assert_eq!(all["totalCount"], 2, "{all}");
    assert_eq!(
        all["messages"][0],
        json!({"messageId": first["id"]}),
        "{all}"
    );
    let one = json!({"messageId": first["id"]});
    let found = store
        .serve_now(&MESSAGES, &list, &call(None, one, Value::Null))
        .unwrap();
    assert_eq!(
        found["messages"],
        json!([{"messageId": first["id"]}]),
        "{found}"
    );
    // Sent empty, a filter is none (Mailgun's `address=`, which its document requires).
    let empty = json!({"messageId": ""});
    let every = store
        .serve_now(&MESSAGES, &list, &call(None, empty, Value::Null))
        .unwrap();
    assert_eq!(every["totalCount"], 2, "{every}");
}

/// Bandwidth's media: a file put at `PUT /media/{mediaId}` (kept as its bytes) and listed as
/// `{content, contentLength, mediaName}`. The list answered `{id}`, a field its item type has
/// not, and none of its own (was); it names the file, counts its bytes, and shows no bytes.
#[test]
fn an_uploaded_file_is_listed_by_its_name_and_length() {
    const MEDIA: &[FieldSchema] = &[
        field("content", Ty::String, false),
        field("contentLength", Ty::Integer, false),
        field("mediaName", Ty::String, false),
        field("contentType", Ty::String, false),
    ];
    const FILES: ServiceSchema = ServiceSchema {
        types: &[TypeSchema {
            name: "Media",
            keeps_other_keys: false,
            shape: ShapeSchema::Object(MEDIA),
        }],
        page: None,
    };
    let upload = ResourceOp {
        name: "upload_media",
        kind: ResourceAction::Replace,
        collection: "/media",
        item_param: Some("mediaId"),
        item_field: None,
        id_field: "mediaId",
        response: None,
        items: None,
        filters: &[],
    };
    let list = ResourceOp {
        name: "list_media",
        kind: ResourceAction::List,
        item_param: None,
        item_field: None,
        id_field: "id",
        response: Some(Ty::List(&Ty::Named("Media"))),
        ..upload
    };
    let store = Resources::default();
    let file = json!({FILE_BYTES: "UE5HREFUQQ==", FILE_MEDIA: "image/png"});
    let put = ResourceCall {
        merge_nested: false,
        path: vec![("mediaId", "pic1.png".to_owned())],
        query: Value::Null,
        body: file,
        named_as: None,
        sendable: None,
        read_as: None,
        item_path: None,
        keeps_made: false,
        names_made: None,
    };
    store.serve_now(&FILES, &upload, &put).unwrap();
    let listed = store
        .serve_now(&FILES, &list, &call(None, json!({}), Value::Null))
        .unwrap();
    assert_eq!(
        listed,
        json!([{"mediaName": "pic1.png", "contentLength": 7, "contentType": "image/png"}])
    );
}

/// Telnyx's `GET /messages/{id}` answers `{"data": oneOf[outbound, inbound]}`, its create
/// `{"data": outbound}`: the get answered the item bare, without `data` (was).
#[test]
fn an_item_answered_inside_a_union_field_is_wrapped_there() {
    const OUTBOUND: &[FieldSchema] = &[
        field("id", Ty::String, false),
        field("text", Ty::String, false),
    ];
    const MADE: &[FieldSchema] = &[field("data", Ty::Named("Outbound"), false)];
    const FOUND: &[FieldSchema] = &[field("data", Ty::Named("Either"), false)];
    const WRAPPED: ServiceSchema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "Outbound",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(OUTBOUND),
            },
            TypeSchema {
                name: "Either",
                keeps_other_keys: false,
                shape: ShapeSchema::Untagged(&[Ty::Named("Outbound")]),
            },
            TypeSchema {
                name: "Made",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(MADE),
            },
            TypeSchema {
                name: "Found",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(FOUND),
            },
        ],
        page: None,
    };
    let create = ResourceOp {
        name: "send_message",
        kind: ResourceAction::Create,
        collection: "/messages",
        item_param: None,
        item_field: None,
        id_field: "id",
        response: Some(Ty::Named("Made")),
        items: None,
        filters: &[],
    };
    let get = ResourceOp {
        name: "get_message",
        kind: ResourceAction::Get,
        item_param: Some("id"),
        item_field: None,
        response: Some(Ty::Named("Found")),
        ..create
    };
    let store = Resources::default();
    let made = store
        .serve_now(
            &WRAPPED,
            &create,
            &call(None, Value::Null, json!({"text": "hello"})),
        )
        .unwrap();
    let id = made["data"]["id"].as_str().unwrap();
    let found = store
        .serve_now(&WRAPPED, &get, &call(Some(id), Value::Null, Value::Null))
        .unwrap();
    assert_eq!(found, json!({"data": {"id": id, "text": "hello"}}));
}

/// Telnyx's send takes `from` and `to` as text and answers them as objects (`from:
/// {phone_number, carrier}`, `to: [{phone_number, status}]`): they came back `{}` and `[]`,
/// the numbers lost (was); each number is in the field that holds it.
#[test]
fn text_sent_where_the_answer_has_an_object_is_kept_in_its_address_field() {
    const PARTY: &[FieldSchema] = &[
        field("phone_number", Ty::String, false),
        field("carrier", Ty::String, false),
    ];
    const SENT: &[FieldSchema] = &[
        field("id", Ty::String, false),
        field("from", Ty::Named("Party"), false),
        field("to", Ty::List(&Ty::Named("Party")), false),
    ];
    const PARTIES: ServiceSchema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "Party",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(PARTY),
            },
            TypeSchema {
                name: "Sent",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(SENT),
            },
        ],
        page: None,
    };
    let create = ResourceOp {
        name: "send_message",
        kind: ResourceAction::Create,
        collection: "/messages",
        item_param: None,
        item_field: None,
        id_field: "id",
        response: Some(Ty::Named("Sent")),
        items: None,
        filters: &[],
    };
    let body = json!({"from": "+15551230000", "to": "+15559871111"});
    let sent = Resources::default()
        .serve_now(&PARTIES, &create, &call(None, Value::Null, body))
        .unwrap();
    assert_eq!(
        sent["from"],
        json!({"phone_number": "+15551230000"}),
        "{sent}"
    );
    assert_eq!(
        sent["to"],
        json!([{"phone_number": "+15559871111"}]),
        "{sent}"
    );
}

/// Telnyx's Dial takes a `sip_auth_password` its answer (`{"data": call}`) has no field for:
/// the create and every get answered it back, inside `data` (was). Answers hold what their
/// type declares, at every depth; what is stored keeps every field.
#[test]
fn no_answer_holds_a_request_field_its_type_does_not_declare() {
    const CALL: &[FieldSchema] = &[
        field("call_control_id", Ty::String, false),
        field("to", Ty::String, false),
    ];
    const WRAPPED_CALL: &[FieldSchema] = &[field("data", Ty::Named("Call"), false)];
    const CALLS: ServiceSchema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "Call",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(CALL),
            },
            TypeSchema {
                name: "Wrapped",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(WRAPPED_CALL),
            },
        ],
        page: None,
    };
    let dial = ResourceOp {
        name: "dial",
        kind: ResourceAction::Create,
        collection: "/calls",
        item_param: None,
        item_field: None,
        id_field: "call_control_id",
        response: Some(Ty::Named("Wrapped")),
        items: None,
        filters: &[],
    };
    let get = ResourceOp {
        name: "get_call",
        kind: ResourceAction::Get,
        item_param: Some("id"),
        item_field: None,
        ..dial
    };
    let store = Resources::default();
    let body = json!({"to": "+15551230000", "sip_auth_password": "hunter2"});
    let made = store
        .serve_now(&CALLS, &dial, &call(None, Value::Null, body))
        .unwrap();
    assert!(!made.to_string().contains("hunter2"), "{made}");
    let id = made["data"]["call_control_id"].as_str().unwrap();
    let found = store
        .serve_now(&CALLS, &get, &call(Some(id), Value::Null, Value::Null))
        .unwrap();
    assert_eq!(
        found,
        json!({"data": {"call_control_id": id, "to": "+15551230000"}})
    );
}

/// A type that takes other keys answers back what a client sent in keys no type declares
/// (Knock's user, `additionalProperties: true`: "any additional properties you'd like to
/// upsert" were kept and never answered, was), never a field another type declares (the dial
/// request's `sip_auth_password`).
#[test]
fn an_open_type_answers_back_the_keys_no_type_declares() {
    const USER: &[FieldSchema] = &[field("id", Ty::String, false)];
    const DIAL: &[FieldSchema] = &[field("sip_auth_password", Ty::String, false)];
    const USERS: ServiceSchema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "User",
                keeps_other_keys: true,
                shape: ShapeSchema::Object(USER),
            },
            TypeSchema {
                name: "Dial",
                keeps_other_keys: true,
                shape: ShapeSchema::Object(DIAL),
            },
        ],
        page: None,
    };
    let create = ResourceOp {
        name: "create_user",
        kind: ResourceAction::Create,
        collection: "/users",
        item_param: None,
        item_field: None,
        id_field: "id",
        response: Some(Ty::Named("User")),
        items: None,
        filters: &[],
    };
    let get = ResourceOp {
        name: "get_user",
        kind: ResourceAction::Get,
        item_param: Some("id"),
        ..create
    };
    let store = Resources::default();
    let body =
        json!({"plan": "gold", "employer": {"name": "ACME"}, "sip_auth_password": "hunter2"});
    let made = store
        .serve_now(&USERS, &create, &call(None, Value::Null, body))
        .unwrap();
    let id = made["id"].as_str().unwrap().to_owned();
    let found = store
        .serve_now(&USERS, &get, &call(Some(&id), Value::Null, Value::Null))
        .unwrap();
    for answer in [made, found] {
        assert_eq!(
            answer,
            json!({"id": id, "plan": "gold", "employer": {"name": "ACME"}})
        );
    }
}
