//! Times and empty texts the store makes: an update moves the item's last-change time, a
//! number that holds a time is now, and an empty text a format refuses is no value.

use super::*;

const STAMPED: &[FieldSchema] = &[
    field("id", Ty::String, false),
    field("op", Ty::String, false),
    field("created_at", Ty::DateTime, true),
    field("updated_at", Ty::DateTime, true),
    FieldSchema {
        format: Some(Format::Rfc3339),
        ..field("sent_at", Ty::Number, false)
    },
    FieldSchema {
        format: Some(Format::Uri),
        ..field("webhook_url", Ty::String, false)
    },
    field("wait_time", Ty::Integer, false),
];

const TIMES: ServiceSchema = ServiceSchema {
    types: &[TypeSchema {
        name: "Config",
        keeps_other_keys: false,
        shape: ShapeSchema::Object(STAMPED),
    }],
    page: None,
};

fn config_op(kind: ResourceAction, item: bool) -> ResourceOp {
    ResourceOp {
        response: Some(Ty::Named("Config")),
        collection: "/configs",
        ..op(kind, item)
    }
}

/// Telnyx's autoresponse configs and Knock's users: `updated_at` kept the create's time
/// through every update (was); a merge and a replace each move it, `created_at` stays.
#[test]
fn an_update_moves_the_last_change_time_and_keeps_the_creation_time() {
    let store = Resources::default();
    let made = store
        .serve_now(
            &TIMES,
            &config_op(ResourceAction::Create, false),
            &call(None, Value::Null, json!({"op": "start"})),
        )
        .unwrap();
    let id = made["id"].as_str().unwrap().to_owned();
    let mut last = made["updated_at"].as_str().unwrap().to_owned();
    for (kind, body) in [
        (ResourceAction::Merge, json!({"op": "stop"})),
        (ResourceAction::Replace, json!({"op": "again"})),
    ] {
        std::thread::sleep(std::time::Duration::from_millis(5));
        let changed = store
            .serve_now(
                &TIMES,
                &config_op(kind, true),
                &call(Some(&id), Value::Null, body),
            )
            .unwrap();
        let now = changed["updated_at"].as_str().unwrap().to_owned();
        assert!(now > last, "{kind:?}: {last} then {now}");
        assert_eq!(changed["created_at"], made["created_at"]);
        last = now;
    }
}

/// Stream's 493 `number` fields of format `date-time` answered `0.0` (was): now, in seconds;
/// a number named for a duration (`wait_time`) is not a time.
#[test]
fn a_number_that_holds_a_time_is_made_up_as_now() {
    let field = STAMPED.iter().find(|f| f.name == "sent_at").unwrap();
    let made = fill(&TIMES, &Ty::Number, None, 0, Some(field));
    let seconds = made.as_f64().unwrap();
    assert!(seconds > 1.7e9 && seconds < 1e11, "{made}");
    let wait = STAMPED.iter().find(|f| f.name == "wait_time").unwrap();
    assert_eq!(fill(&TIMES, &Ty::Integer, None, 0, Some(wait)), json!(0));
}

/// Telnyx's `webhook_failover_url` is `""` by default, format `url`: it was answered as a
/// made-up `https://example.com/`, a link that says one is set (was). An empty text the
/// format refuses leaves the optional field out.
#[test]
fn an_empty_text_its_format_refuses_is_no_value() {
    let filled = fill(
        &TIMES,
        &Ty::Named("Config"),
        Some(&json!({"op": "x", "webhook_url": ""})),
        0,
        None,
    );
    assert!(filled.get("webhook_url").is_none(), "{filled}");
    let filled = fill(
        &TIMES,
        &Ty::Named("Config"),
        Some(&json!({"webhook_url": "https://hooks.example.com/a"})),
        0,
        None,
    );
    assert_eq!(filled["webhook_url"], "https://hooks.example.com/a");
}

/// Intercom's contacts: `created_at` and `updated_at`, Unix seconds, optional and not marked
/// read-only, were never answered by a create; the service stamps them, so they are now.
#[test]
fn a_create_stamps_the_times_a_name_says_the_service_sets() {
    const CONTACT: &[FieldSchema] = &[
        field("id", Ty::String, false),
        FieldSchema {
            format: Some(Format::Unix),
            ..field("created_at", Ty::Integer, false)
        },
        FieldSchema {
            format: Some(Format::Unix),
            ..field("updated_at", Ty::Integer, false)
        },
        field("last_seen_at", Ty::Integer, false),
    ];
    const CONTACTS: ServiceSchema = ServiceSchema {
        types: &[TypeSchema {
            name: "Contact",
            keeps_other_keys: false,
            shape: ShapeSchema::Object(CONTACT),
        }],
        page: None,
    };
    let create = ResourceOp {
        response: Some(Ty::Named("Contact")),
        collection: "/contacts",
        ..op(ResourceAction::Create, false)
    };
    let made = Resources::default()
        .serve_now(&CONTACTS, &create, &call(None, Value::Null, json!({})))
        .unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    for stamp in ["created_at", "updated_at"] {
        let at = made[stamp]
            .as_u64()
            .unwrap_or_else(|| panic!("{stamp}: {made}"));
        assert!(now.abs_diff(at) < 60, "{stamp} is now: {made}");
    }
    // Seen last by the user, not stamped by the service: left out.
    assert!(made.get("last_seen_at").is_none(), "{made}");
}
