//! What the store makes besides the items sent: a sequence's next number, a check's verdict.

use super::*;

/// A sequence field (a message's `index`) counts on past a deleted item's number, and the
/// numbers kept are bounded: past `MAX_SEQUENCES` collections, those no longer held are
/// forgotten first.
#[tokio::test]
async fn a_sequence_never_gives_a_number_twice_and_its_memory_is_bounded() {
    const MESSAGE: &[FieldSchema] = &[
        field("id", Ty::String, true),
        field("index", Ty::Integer, false),
    ];
    const SCHEMA: ServiceSchema = ServiceSchema {
        types: &[TypeSchema {
            name: "Message",
            keeps_other_keys: false,
            shape: ShapeSchema::Object(MESSAGE),
        }],
        page: None,
    };
    let op = |name, kind, item_param| ResourceOp {
        name,
        kind,
        collection: "/conversations/{cid}/messages",
        item_param,
        item_field: None,
        id_field: "id",
        response: Some(Ty::Named("Message")),
        items: None,
        filters: &[],
    };
    let create = op("create", ResourceAction::Create, None);
    let delete = op("delete", ResourceAction::Delete, Some("id"));
    let store = Resources::new(ResourceLimits::default());
    let call = |cid: &str, id: Option<&str>| ResourceCall {
        merge_nested: false,
        path: std::iter::once(("cid", cid.to_owned()))
            .chain(id.map(|id| ("id", id.to_owned())))
            .collect(),
        query: Value::Null,
        body: json!({}),
        named_as: None,
        sendable: None,
        read_as: None,
        item_path: None,
        keeps_made: false,
        names_made: None,
    };
    let first = store
        .serve(&SCHEMA, &create, &call("c0", None))
        .await
        .unwrap();
    let second = store
        .serve(&SCHEMA, &create, &call("c0", None))
        .await
        .unwrap();
    assert_eq!((&first["index"], &second["index"]), (&json!(0), &json!(1)));
    let newest = second["id"].as_str().unwrap();
    store
        .serve(&SCHEMA, &delete, &call("c0", Some(newest)))
        .await
        .unwrap();
    let third = store
        .serve(&SCHEMA, &create, &call("c0", None))
        .await
        .unwrap();
    assert_eq!(third["index"], 2, "{third}");
    // More conversations than sequences kept: each still counts from its own items.
    for n in 1..=state::MAX_SEQUENCES * 2 {
        let made = store
            .serve(&SCHEMA, &create, &call(&format!("c{n}"), None))
            .await
            .unwrap();
        assert_eq!(made["index"], 0, "{made}");
    }
    assert!(store.lock().sequences.len() <= state::MAX_SEQUENCES);
    let fourth = store
        .serve(&SCHEMA, &create, &call("c0", None))
        .await
        .unwrap();
    assert_eq!(fourth["index"], 3, "{fourth}");
}

/// A code sent to an action whose answer is no check's (a coupon redeemed `{code, note}`,
/// answering `{status}`) is not checked: answered as any action, not a 404 for a note that
/// names no item.
#[tokio::test]
async fn a_code_sent_to_an_action_that_is_no_check_is_not_checked() {
    const REDEEMED: &[FieldSchema] = &[field("status", Ty::String, false)];
    const SCHEMA: ServiceSchema = ServiceSchema {
        types: &[TypeSchema {
            name: "Redeemed",
            keeps_other_keys: false,
            shape: ShapeSchema::Object(REDEEMED),
        }],
        page: None,
    };
    let redeem = ResourceOp {
        name: "redeem_coupon",
        kind: ResourceAction::Action,
        collection: "/coupons/redeem",
        item_param: None,
        item_field: None,
        id_field: "id",
        response: Some(Ty::Named("Redeemed")),
        items: None,
        filters: &[],
    };
    let store = Resources::new(ResourceLimits::default());
    let call = ResourceCall {
        merge_nested: false,
        path: Vec::new(),
        query: Value::Null,
        body: json!({"code": "SAVE10", "note": "first order"}),
        named_as: None,
        sendable: None,
        read_as: None,
        item_path: None,
        keeps_made: false,
        names_made: None,
    };
    let answered = store.serve(&SCHEMA, &redeem, &call).await;
    assert!(answered.is_ok(), "{answered:?}");
}
