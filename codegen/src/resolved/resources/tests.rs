//! Tests of how operations are read as resource operations.

use super::{names_the_collection, singular};

/// The shape of each operation of a spec written in YAML, by operation name (for tests).
pub(super) fn shapes_of(yaml: &str) -> impl Fn(&str) -> super::ResourceShape {
    let loaded = crate::load::load_str("spec.yaml", yaml).expect("loads");
    let service = crate::check::check(&loaded).unwrap_or_else(|d| panic!("{d}"));
    move |name| {
        let op = service.operations.iter().find(|o| o.name == name);
        super::resource_shape(
            &service,
            op.unwrap_or_else(|| panic!("no operation `{name}`")),
        )
    }
}

#[test]
fn singulars_of_field_names() {
    for (plural, one) in [
        ("recipient_emails", "recipient_email"),
        ("addresses", "address"),
        ("entries", "entry"),
        ("ids", "id"),
        ("boxes", "box"),
        ("status", "status"),
        ("email", "email"),
    ] {
        assert_eq!(singular(plural), one, "{plural}");
    }
}

#[test]
fn a_create_is_keyed_by_its_items_path_not_a_path_beneath_it() {
    // Twilio Notify: `/v1/Services/{service_sid}/Bindings/{sid}` comes before
    // `/v1/Services/{sid}`; read as the services' item path, it named the parameter
    // `service_sid}/Bindings/{sid`, and services were keyed by `alexa_skill_id`.
    let yaml = r#"
service: { name: n, title: N, summary: N, source: assumed, base_url: { default: "http://localhost:1", env: N_BASE_URL, source: assumed } }
operations:
  create_service: { method: POST, path: "/v1/Services", body: NewService, body_encoding: form, response: Service, source: assumed }
  delete_binding: { method: DELETE, path: "/v1/Services/{service_sid}/Bindings/{sid}", path_params: { service_sid: { type: string }, sid: { type: string } }, source: assumed }
  fetch_service: { method: GET, path: "/v1/Services/{sid}", path_params: { sid: { type: string } }, response: Service, source: assumed }
types:
  NewService: { source: assumed, fields: { FriendlyName: { type: string } } }
  Service: { source: assumed, fields: { alexa_skill_id: { type: string }, sid: { type: string, pattern: "^IS[0-9a-f]{32}$" } } }
"#;
    assert_eq!(shapes_of(yaml)("create_service").id_field, "sid");
}

#[test]
fn a_send_under_an_item_answering_a_sid_of_its_own_creates_there() {
    // Twilio Notify: `POST /v1/Services/{service_sid}/Notifications` answers a notification
    // (`sid` beside `account_sid` and `service_sid`), which nothing reads back: an action on
    // the service, it answered no `sid` at all.
    let yaml = r#"
service: { name: n, title: N, summary: N, source: assumed, base_url: { default: "http://localhost:1", env: N_BASE_URL, source: assumed } }
operations:
  fetch_service: { method: GET, path: "/v1/Services/{sid}", path_params: { sid: { type: string } }, response: Service, source: assumed }
  create_notification: { method: POST, path: "/v1/Services/{service_sid}/Notifications", path_params: { service_sid: { type: string } }, body: NewNotification, body_encoding: form, response: Notification, source: assumed }
types:
  Service: { source: assumed, fields: { sid: { type: string } } }
  NewNotification: { source: assumed, fields: { Body: { type: string } } }
  Notification: { source: assumed, fields: { account_sid: { type: string }, service_sid: { type: string }, sid: { type: string }, body: { type: string } } }
"#;
    let shape = shapes_of(yaml)("create_notification");
    assert_eq!(
        (
            shape.kind.name(),
            shape.collection.as_str(),
            shape.id_field.as_str()
        ),
        ("Create", "/v1/Services/{service_sid}/Notifications", "sid")
    );
}

#[test]
fn an_id_field_named_after_its_collection() {
    for (field, segment) in [
        ("TemplateID", "templates"),
        ("template_id", "templates"),
        ("queueId", "Queues.json"),
        ("listId", "list"),
    ] {
        assert!(names_the_collection(field, segment), "{field} of {segment}");
    }
    for (field, segment) in [
        ("AssociatedServerId", "templates"),
        ("id", "templates"),
        ("TemplateID", "messages"),
    ] {
        assert!(
            !names_the_collection(field, segment),
            "{field} of {segment}"
        );
    }
}

#[test]
fn a_list_whose_items_a_pascal_case_parameter_names_is_a_list() {
    // Twilio Sync: `{items: [...]}` of list items `{index, data}`, each read at
    // `/Items/{Index}`; the field and the parameter differ in case only, and the answer was
    // read as no list at all (`{}`).
    let yaml = r#"
service: { name: n, title: N, summary: N, source: assumed, base_url: { default: "http://localhost:1", env: N_BASE_URL, source: assumed } }
operations:
  list_items: { method: GET, path: "/v1/Lists/{ListSid}/Items", path_params: { ListSid: { type: string } }, response: Items, source: assumed }
  fetch_item: { method: GET, path: "/v1/Lists/{ListSid}/Items/{Index}", path_params: { ListSid: { type: string }, Index: { type: integer } }, response: Item, source: assumed }
types:
  Item: { source: assumed, fields: { index: { type: integer }, data: { type: json } } }
  Items: { source: assumed, fields: { items: { type: "list<Item>" } } }
"#;
    let shape = shapes_of(yaml)("list_items");
    assert_eq!(
        (shape.kind.name(), shape.items.as_deref()),
        ("List", Some("items"))
    );
}

#[test]
fn an_item_is_keyed_by_the_id_its_create_does_not_send() {
    // Vonage's reports: created with an `account_id`, answered with it and a `request_id`,
    // read at `/v2/reports/{report_id}`. Keyed by `account_id` (the first id), a report had
    // no id of its own, and a second one of the account was refused as held.
    let yaml = r#"
service: { name: n, title: N, summary: N, source: assumed, base_url: { default: "http://localhost:1", env: N_BASE_URL, source: assumed } }
operations:
  create_report: { method: POST, path: "/v2/reports", body: NewReport, response: Report, source: assumed }
  get_report: { method: GET, path: "/v2/reports/{report_id}", path_params: { report_id: { type: string } }, response: Report, source: assumed }
types:
  NewReport: { source: assumed, fields: { account_id: { type: string }, product: { type: string } } }
  Report: { source: assumed, fields: { account_id: { type: string }, request_id: { type: string }, product: { type: string } } }
"#;
    let shape_of = shapes_of(yaml);
    assert_eq!(shape_of("create_report").id_field, "request_id");
    assert_eq!(shape_of("get_report").id_field, "request_id");
}
