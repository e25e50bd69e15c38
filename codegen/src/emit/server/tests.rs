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
    let services = crate::check::check_dir(&dir).expect("the specs check");
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
    let services = crate::check::check_dir(&dir).expect("the specs check");
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
    let services = crate::check::check_dir(&dir).expect("the specs check");
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
        (s.kind, s.collection, s.item_param)
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
    let services = crate::check::check_dir(&dir).expect("the specs check");
    let bad = ServerOptions {
        types_path: "not a path!".into(),
        support_path: DEFAULT_SUPPORT_PATH.into(),
    };
    let err = emit_server(&services[0], &bad).unwrap_err();
    assert!(err.contains("types path"), "{err}");
}
