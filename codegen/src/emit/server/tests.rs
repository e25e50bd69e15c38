use super::*;

fn options() -> ServerOptions {
    ServerOptions {
        types_path: "::tidings".into(),
        support_path: DEFAULT_SUPPORT_PATH.into(),
    }
}

#[test]
fn every_real_spec_gives_a_server_with_one_method_and_route_per_operation() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let services = crate::check::check_paths(&[&dir], crate::ProvenancePolicy::Required)
        .expect("the specs check");
    for service in &services {
        let code = emit_server(service, &options()).expect("emits");
        let name = service.name();
        assert!(code.contains(&format!("pub mod {name}_server {{")));
        assert!(code.contains(&format!("pub trait {}Server", pascal(name))));
        for op in &service.operations {
            assert!(
                code.contains(&format!("fn {}(", op.name)),
                "{name}: {}",
                op.name
            );
            assert!(
                code.contains(&format!("\"{}\"", op.path)),
                "{name}: {}",
                op.path
            );
        }
    }
}

#[test]
fn success_statuses_and_validation_follow_the_spec() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let services = crate::check::check_paths(&[&dir], crate::ProvenancePolicy::Required)
        .expect("the specs check");
    let email = services
        .iter()
        .find(|s| s.name() == "email")
        .expect("email spec");
    let code = emit_server(email, &options()).expect("emits");
    let handler = |name: &str| {
        let start = code
            .find(&format!("async fn handle_{name}<"))
            .expect("handler");
        code[start..]
            .split("\n    }\n")
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    assert!(handler("send_email").contains("json_checked::<::tidings::email::SendEmailRequest>"));
    assert!(handler("send_email").contains("incoming.finish(result, 202)"));
    assert!(handler("remove_list_contact").contains("incoming.finish_empty(result, 204)"));
    assert!(handler("list_emails").contains("query_checked::<::tidings::email::ListEmailsQuery>"));
    assert!(handler("get_email").contains("path_param::<::std::string::String>(\"id\")"));
}

#[test]
fn method_and_path_say_what_each_operation_does_to_its_collection() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let services = crate::check::check_paths(&[&dir], crate::ProvenancePolicy::Required)
        .expect("the specs check");
    let email = services
        .iter()
        .find(|s| s.name() == "email")
        .expect("email spec");
    let shape = |name: &str| {
        let op = email
            .operations
            .iter()
            .find(|o| o.name == name)
            .expect("operation");
        let s = resource_shape(email, op);
        (s.kind.name(), s.collection, s.item_param)
    };
    let some = |s: &str| Some(s.to_owned());
    assert_eq!(
        shape("create_template"),
        ("Create", "/v1/templates".into(), None)
    );
    assert_eq!(
        shape("list_templates"),
        ("List", "/v1/templates".into(), None)
    );
    assert_eq!(
        shape("get_template"),
        ("Get", "/v1/templates".into(), some("id"))
    );
    assert_eq!(
        shape("delete_template"),
        ("Delete", "/v1/templates".into(), some("id"))
    );
    assert_eq!(
        shape("cancel_email"),
        ("Action", "/v1/emails".into(), some("id"))
    );
    assert_eq!(
        shape("add_list_contact"),
        ("Create", "/v1/lists/{id}/contacts".into(), None)
    );
    assert_eq!(shape("send_batch").0, "Action");
    let code = emit_server(email, &options()).expect("emits");
    // Every operation has a default body, so a new operation needs no hand-written code.
    assert_eq!(
        code.matches("let _ = ctx;").count(),
        email.operations.len(),
        "one default per operation"
    );
    assert!(
        code.contains(
            "pub static CREATE_TEMPLATE: ::tidings_sandbox::server::resources::ResourceOp"
        )
    );
}

#[test]
fn a_bad_path_option_is_an_error_not_a_panic() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let services = crate::check::check_paths(&[&dir], crate::ProvenancePolicy::Required)
        .expect("the specs check");
    let bad = ServerOptions {
        types_path: "not a path!".into(),
        support_path: DEFAULT_SUPPORT_PATH.into(),
    };
    let err = emit_server(&services[0], &bad).unwrap_err();
    assert!(err.contains("types path"), "{err}");
}

#[test]
fn a_post_under_an_item_answering_another_type_with_an_id_creates_in_a_nested_collection() {
    // `POST /boards/{board}/notes` answering a note (no list or item operation beside it) is a
    // create in the board's notes, not an action on the board: an action keeps nothing, so
    // its 201 would be a write lost. `POST /boards/{board}/archive` answering the board, and
    // `POST /boards/{board}/verify` answering another type, stay actions on it.
    let yaml = r#"
service: { name: boards, title: Boards, summary: Boards, source: assumed, base_url: { default: "http://localhost:1", env: BOARDS_BASE_URL, source: assumed } }
operations:
  get_board: { method: GET, path: "/boards/{board}", path_params: { board: { type: string } }, response: Board, source: assumed }
  add_note: { method: POST, path: "/boards/{board}/notes", path_params: { board: { type: string } }, body: Note, response: Note, source: assumed }
  archive_board: { method: POST, path: "/boards/{board}/archive", path_params: { board: { type: string } }, response: Board, source: assumed }
  add_tag: { method: POST, path: "/cards/{card}/tags", path_params: { card: { type: string } }, body: Note, response: Note, source: assumed }
  pin_card: { method: POST, path: "/cards/{card}/pin", path_params: { card: { type: string } }, response: Note, source: assumed }
  add_member: { method: POST, path: "/boards/{board}/members/{member}", path_params: { board: { type: string }, member: { type: string } }, response: Note, source: assumed }
  rename_card: { method: POST, path: "/cards/{card}", path_params: { card: { type: string } }, body: Note, response: Note, source: assumed }
  list_cards: { method: GET, path: "/cards", response: "list<Note>", source: assumed }
  import_cards: { method: PUT, path: "/cards", body: CardBatch, response: Job, source: assumed }
  verify_board: { method: POST, path: "/boards/{board}/verify", path_params: { board: { type: string } }, response: Note, source: assumed }
  block: { method: POST, path: "/blocked", body: Addresses, response: Addresses, status: 201, source: assumed }
  list_blocked: { method: GET, path: "/blocked", response: "list<string>", source: assumed }
  unblock: { method: DELETE, path: "/blocked/{email}", path_params: { email: { type: string } }, status: 204, source: assumed }
  notify: { method: POST, path: "/boards/{board}/notify", path_params: { board: { type: string } }, body: Addresses, status: 204, source: assumed }
  delete_cards: { method: DELETE, path: "/cards", query: { ids: { type: "list<string>" } }, status: 204, source: assumed }
types:
  Addresses: { source: assumed, fields: { recipient_emails: { type: "list<string>", required: true } } }
  Board: { source: assumed, fields: { id: { type: string, required: true } } }
  Note: { source: assumed, fields: { id: { type: string }, text: { type: string } } }
  CardBatch: { source: assumed, fields: { cards: { type: "list<Note>", required: true } } }
  Job: { source: assumed, fields: { job_id: { type: string } } }
"#;
    let loaded = crate::load::load_str("boards.yaml", yaml).expect("loads");
    let service = crate::check::check(&loaded).unwrap_or_else(|d| panic!("{d}"));
    let shape = |name: &str| {
        let op = service.operations.iter().find(|o| o.name == name).unwrap();
        let s = resource_shape(&service, op);
        (s.kind.name(), s.collection)
    };
    assert_eq!(
        shape("add_note"),
        ("Create", "/boards/{board}/notes".into())
    );
    assert_eq!(shape("archive_board"), ("Action", "/boards".into()));
    // No `GET /cards/{card}`: a plural noun creates, a verb acts.
    assert_eq!(shape("add_tag"), ("Create", "/cards/{card}/tags".into()));
    assert_eq!(shape("pin_card"), ("Action", "/cards".into()));
    // A verb acts even when its answer is another type than the item's (Resend's `POST
    // /domains/{domain_id}/verify` answers `{object, id}`, the domain's id).
    assert_eq!(shape("verify_board"), ("Action", "/boards".into()));
    // A `POST` on an item path with no body puts that item (Resend's contact added to a
    // segment); with a body it merges into it (Twilio's updates).
    assert_eq!(
        shape("add_member"),
        ("Replace", "/boards/{board}/members".into())
    );
    assert_eq!(shape("rename_card"), ("Merge", "/cards".into()));
    // A `PUT` on a listed collection whose body holds a list of objects creates (or updates)
    // each (SendGrid's `PUT /marketing/contacts`), keyed by `id`, not the answer's `job_id`.
    let import = service.operations.iter().find(|o| o.name == "import_cards");
    let import = resource_shape(&service, import.unwrap());
    assert_eq!(
        (
            import.kind.name(),
            import.items.as_deref(),
            import.id_field.as_str()
        ),
        ("Create", Some("cards"), "id")
    );
    // A body of one list of plain values on a collection listed as such (or with an item
    // path) is a set: each value an item of its own, under the field's singular.
    let set = |name: &str| {
        let op = service.operations.iter().find(|o| o.name == name).unwrap();
        let s = resource_shape(&service, op);
        (s.kind.name(), s.items, s.id_field)
    };
    assert_eq!(
        set("block"),
        (
            "Create",
            Some("recipient_emails".into()),
            "recipient_email".into()
        )
    );
    assert_eq!(shape("list_blocked"), ("List", "/blocked".into()));
    assert_eq!(shape("unblock"), ("Delete", "/blocked".into()));
    // Without a listing or an item path such a body is no set (a send to each address).
    assert_eq!(set("notify").0, "Action");
    // A `DELETE` of a collection with `ids` removes the items it names.
    assert_eq!(
        set("delete_cards"),
        ("Delete", Some("ids".into()), "id".into())
    );
}
