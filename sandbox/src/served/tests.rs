//! The run-time descriptions (`tidings_codegen::describe`) against the statics the generator wrote for the same
//! specs: a served spec behaves as its compiled client and server do only while these agree.

use tidings_codegen::check::{OperationInfo, Service};
use tidings_codegen::describe as vocab;

fn service(name: &str) -> Service {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
    super::load(&dir)
        .unwrap_or_else(|e| panic!("the specs check: {e}"))
        .into_iter()
        .find(|s| s.name() == name)
        .unwrap_or_else(|| panic!("no `{name}` spec"))
}

fn op<'s>(service: &'s Service, name: &str) -> &'s OperationInfo {
    service
        .operations
        .iter()
        .find(|o| o.name == name)
        .unwrap_or_else(|| panic!("no operation `{name}`"))
}

#[test]
fn every_description_built_at_run_time_equals_the_generated_static() {
    let s = service("email");
    assert_eq!(
        vocab::service_spec(&s),
        tidings::email::SERVICE,
        "email: SERVICE"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "list_resources")),
        &tidings::email::operations::LIST_RESOURCES,
        "email: LIST_RESOURCES"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "send_email")),
        &tidings::email::operations::SEND_EMAIL,
        "email: SEND_EMAIL"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "send_batch")),
        &tidings::email::operations::SEND_BATCH,
        "email: SEND_BATCH"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "list_emails")),
        &tidings::email::operations::LIST_EMAILS,
        "email: LIST_EMAILS"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "get_email")),
        &tidings::email::operations::GET_EMAIL,
        "email: GET_EMAIL"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "reschedule_email")),
        &tidings::email::operations::RESCHEDULE_EMAIL,
        "email: RESCHEDULE_EMAIL"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "cancel_email")),
        &tidings::email::operations::CANCEL_EMAIL,
        "email: CANCEL_EMAIL"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "create_template")),
        &tidings::email::operations::CREATE_TEMPLATE,
        "email: CREATE_TEMPLATE"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "list_templates")),
        &tidings::email::operations::LIST_TEMPLATES,
        "email: LIST_TEMPLATES"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "get_template")),
        &tidings::email::operations::GET_TEMPLATE,
        "email: GET_TEMPLATE"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "update_template")),
        &tidings::email::operations::UPDATE_TEMPLATE,
        "email: UPDATE_TEMPLATE"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "delete_template")),
        &tidings::email::operations::DELETE_TEMPLATE,
        "email: DELETE_TEMPLATE"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "publish_template")),
        &tidings::email::operations::PUBLISH_TEMPLATE,
        "email: PUBLISH_TEMPLATE"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "create_contact")),
        &tidings::email::operations::CREATE_CONTACT,
        "email: CREATE_CONTACT"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "upsert_contact")),
        &tidings::email::operations::UPSERT_CONTACT,
        "email: UPSERT_CONTACT"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "list_contacts")),
        &tidings::email::operations::LIST_CONTACTS,
        "email: LIST_CONTACTS"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "get_contact")),
        &tidings::email::operations::GET_CONTACT,
        "email: GET_CONTACT"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "update_contact")),
        &tidings::email::operations::UPDATE_CONTACT,
        "email: UPDATE_CONTACT"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "delete_contact")),
        &tidings::email::operations::DELETE_CONTACT,
        "email: DELETE_CONTACT"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "create_list")),
        &tidings::email::operations::CREATE_LIST,
        "email: CREATE_LIST"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "list_lists")),
        &tidings::email::operations::LIST_LISTS,
        "email: LIST_LISTS"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "get_list")),
        &tidings::email::operations::GET_LIST,
        "email: GET_LIST"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "update_list")),
        &tidings::email::operations::UPDATE_LIST,
        "email: UPDATE_LIST"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "delete_list")),
        &tidings::email::operations::DELETE_LIST,
        "email: DELETE_LIST"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "list_list_contacts")),
        &tidings::email::operations::LIST_LIST_CONTACTS,
        "email: LIST_LIST_CONTACTS"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "add_list_contact")),
        &tidings::email::operations::ADD_LIST_CONTACT,
        "email: ADD_LIST_CONTACT"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "remove_list_contact")),
        &tidings::email::operations::REMOVE_LIST_CONTACT,
        "email: REMOVE_LIST_CONTACT"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "create_suppression")),
        &tidings::email::operations::CREATE_SUPPRESSION,
        "email: CREATE_SUPPRESSION"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "list_suppressions")),
        &tidings::email::operations::LIST_SUPPRESSIONS,
        "email: LIST_SUPPRESSIONS"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "get_suppression")),
        &tidings::email::operations::GET_SUPPRESSION,
        "email: GET_SUPPRESSION"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "delete_suppression")),
        &tidings::email::operations::DELETE_SUPPRESSION,
        "email: DELETE_SUPPRESSION"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "create_webhook")),
        &tidings::email::operations::CREATE_WEBHOOK,
        "email: CREATE_WEBHOOK"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "list_webhooks")),
        &tidings::email::operations::LIST_WEBHOOKS,
        "email: LIST_WEBHOOKS"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "get_webhook")),
        &tidings::email::operations::GET_WEBHOOK,
        "email: GET_WEBHOOK"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "update_webhook")),
        &tidings::email::operations::UPDATE_WEBHOOK,
        "email: UPDATE_WEBHOOK"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "delete_webhook")),
        &tidings::email::operations::DELETE_WEBHOOK,
        "email: DELETE_WEBHOOK"
    );
    assert_eq!(
        vocab::service_schema(&s),
        crate::server::email_server::defaults::SCHEMA,
        "email: SCHEMA"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "list_resources")),
        crate::server::email_server::defaults::LIST_RESOURCES,
        "email: defaults::LIST_RESOURCES"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "send_email")),
        crate::server::email_server::defaults::SEND_EMAIL,
        "email: defaults::SEND_EMAIL"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "send_batch")),
        crate::server::email_server::defaults::SEND_BATCH,
        "email: defaults::SEND_BATCH"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "list_emails")),
        crate::server::email_server::defaults::LIST_EMAILS,
        "email: defaults::LIST_EMAILS"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "get_email")),
        crate::server::email_server::defaults::GET_EMAIL,
        "email: defaults::GET_EMAIL"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "reschedule_email")),
        crate::server::email_server::defaults::RESCHEDULE_EMAIL,
        "email: defaults::RESCHEDULE_EMAIL"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "cancel_email")),
        crate::server::email_server::defaults::CANCEL_EMAIL,
        "email: defaults::CANCEL_EMAIL"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "create_template")),
        crate::server::email_server::defaults::CREATE_TEMPLATE,
        "email: defaults::CREATE_TEMPLATE"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "list_templates")),
        crate::server::email_server::defaults::LIST_TEMPLATES,
        "email: defaults::LIST_TEMPLATES"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "get_template")),
        crate::server::email_server::defaults::GET_TEMPLATE,
        "email: defaults::GET_TEMPLATE"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "update_template")),
        crate::server::email_server::defaults::UPDATE_TEMPLATE,
        "email: defaults::UPDATE_TEMPLATE"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "delete_template")),
        crate::server::email_server::defaults::DELETE_TEMPLATE,
        "email: defaults::DELETE_TEMPLATE"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "publish_template")),
        crate::server::email_server::defaults::PUBLISH_TEMPLATE,
        "email: defaults::PUBLISH_TEMPLATE"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "create_contact")),
        crate::server::email_server::defaults::CREATE_CONTACT,
        "email: defaults::CREATE_CONTACT"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "upsert_contact")),
        crate::server::email_server::defaults::UPSERT_CONTACT,
        "email: defaults::UPSERT_CONTACT"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "list_contacts")),
        crate::server::email_server::defaults::LIST_CONTACTS,
        "email: defaults::LIST_CONTACTS"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "get_contact")),
        crate::server::email_server::defaults::GET_CONTACT,
        "email: defaults::GET_CONTACT"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "update_contact")),
        crate::server::email_server::defaults::UPDATE_CONTACT,
        "email: defaults::UPDATE_CONTACT"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "delete_contact")),
        crate::server::email_server::defaults::DELETE_CONTACT,
        "email: defaults::DELETE_CONTACT"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "create_list")),
        crate::server::email_server::defaults::CREATE_LIST,
        "email: defaults::CREATE_LIST"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "list_lists")),
        crate::server::email_server::defaults::LIST_LISTS,
        "email: defaults::LIST_LISTS"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "get_list")),
        crate::server::email_server::defaults::GET_LIST,
        "email: defaults::GET_LIST"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "update_list")),
        crate::server::email_server::defaults::UPDATE_LIST,
        "email: defaults::UPDATE_LIST"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "delete_list")),
        crate::server::email_server::defaults::DELETE_LIST,
        "email: defaults::DELETE_LIST"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "list_list_contacts")),
        crate::server::email_server::defaults::LIST_LIST_CONTACTS,
        "email: defaults::LIST_LIST_CONTACTS"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "add_list_contact")),
        crate::server::email_server::defaults::ADD_LIST_CONTACT,
        "email: defaults::ADD_LIST_CONTACT"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "remove_list_contact")),
        crate::server::email_server::defaults::REMOVE_LIST_CONTACT,
        "email: defaults::REMOVE_LIST_CONTACT"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "create_suppression")),
        crate::server::email_server::defaults::CREATE_SUPPRESSION,
        "email: defaults::CREATE_SUPPRESSION"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "list_suppressions")),
        crate::server::email_server::defaults::LIST_SUPPRESSIONS,
        "email: defaults::LIST_SUPPRESSIONS"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "get_suppression")),
        crate::server::email_server::defaults::GET_SUPPRESSION,
        "email: defaults::GET_SUPPRESSION"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "delete_suppression")),
        crate::server::email_server::defaults::DELETE_SUPPRESSION,
        "email: defaults::DELETE_SUPPRESSION"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "create_webhook")),
        crate::server::email_server::defaults::CREATE_WEBHOOK,
        "email: defaults::CREATE_WEBHOOK"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "list_webhooks")),
        crate::server::email_server::defaults::LIST_WEBHOOKS,
        "email: defaults::LIST_WEBHOOKS"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "get_webhook")),
        crate::server::email_server::defaults::GET_WEBHOOK,
        "email: defaults::GET_WEBHOOK"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "update_webhook")),
        crate::server::email_server::defaults::UPDATE_WEBHOOK,
        "email: defaults::UPDATE_WEBHOOK"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "delete_webhook")),
        crate::server::email_server::defaults::DELETE_WEBHOOK,
        "email: defaults::DELETE_WEBHOOK"
    );
    let s = service("messaging");
    assert_eq!(
        vocab::service_spec(&s),
        tidings::messaging::SERVICE,
        "messaging: SERVICE"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "list_resources")),
        &tidings::messaging::operations::LIST_RESOURCES,
        "messaging: LIST_RESOURCES"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "send_message")),
        &tidings::messaging::operations::SEND_MESSAGE,
        "messaging: SEND_MESSAGE"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "list_messages")),
        &tidings::messaging::operations::LIST_MESSAGES,
        "messaging: LIST_MESSAGES"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "get_message")),
        &tidings::messaging::operations::GET_MESSAGE,
        "messaging: GET_MESSAGE"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "update_message")),
        &tidings::messaging::operations::UPDATE_MESSAGE,
        "messaging: UPDATE_MESSAGE"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "list_templates")),
        &tidings::messaging::operations::LIST_TEMPLATES,
        "messaging: LIST_TEMPLATES"
    );
    assert_eq!(
        vocab::service_schema(&s),
        crate::server::messaging_server::defaults::SCHEMA,
        "messaging: SCHEMA"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "list_resources")),
        crate::server::messaging_server::defaults::LIST_RESOURCES,
        "messaging: defaults::LIST_RESOURCES"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "send_message")),
        crate::server::messaging_server::defaults::SEND_MESSAGE,
        "messaging: defaults::SEND_MESSAGE"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "list_messages")),
        crate::server::messaging_server::defaults::LIST_MESSAGES,
        "messaging: defaults::LIST_MESSAGES"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "get_message")),
        crate::server::messaging_server::defaults::GET_MESSAGE,
        "messaging: defaults::GET_MESSAGE"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "update_message")),
        crate::server::messaging_server::defaults::UPDATE_MESSAGE,
        "messaging: defaults::UPDATE_MESSAGE"
    );
    assert_eq!(
        vocab::resource_op(&s, op(&s, "list_templates")),
        crate::server::messaging_server::defaults::LIST_TEMPLATES,
        "messaging: defaults::LIST_TEMPLATES"
    );
    let s = service("realtime");
    assert_eq!(
        vocab::service_spec(&s),
        tidings::realtime::SERVICE,
        "realtime: SERVICE"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "get_root")),
        &tidings::realtime::operations::GET_ROOT,
        "realtime: GET_ROOT"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "trigger_event")),
        &tidings::realtime::operations::TRIGGER_EVENT,
        "realtime: TRIGGER_EVENT"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "trigger_batch")),
        &tidings::realtime::operations::TRIGGER_BATCH,
        "realtime: TRIGGER_BATCH"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "list_channels")),
        &tidings::realtime::operations::LIST_CHANNELS,
        "realtime: LIST_CHANNELS"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "get_channel")),
        &tidings::realtime::operations::GET_CHANNEL,
        "realtime: GET_CHANNEL"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "list_presence_users")),
        &tidings::realtime::operations::LIST_PRESENCE_USERS,
        "realtime: LIST_PRESENCE_USERS"
    );
    assert_eq!(
        &vocab::operation_spec(op(&s, "terminate_user_connections")),
        &tidings::realtime::operations::TERMINATE_USER_CONNECTIONS,
        "realtime: TERMINATE_USER_CONNECTIONS"
    );
    assert_eq!(
        vocab::pagination_spec(
            service("email")
                .page_style
                .as_ref()
                .unwrap_or_else(|| panic!("email pages"))
        ),
        tidings::email::PAGINATION
    );
}

/// Telnyx's token URL is `https://api.telnyx.com/v2/oauth/token` beneath its base URL
/// `https://api.telnyx.com/v2`: tokens were handed out at `/v2/oauth/token`, a path none of
/// the served operations has, and `/oauth/token` (where the document's token operation is,
/// and where a client pointed here asks) refused the client (was).
#[test]
fn the_token_endpoint_is_where_the_token_url_sits_beneath_the_base_url() {
    let base = Some("https://api.telnyx.com/v2");
    assert_eq!(
        super::token_path("https://api.telnyx.com/v2/oauth/token", base),
        "/oauth/token"
    );
    assert_eq!(
        super::token_path("https://auth.example.com/realms/x/token", base),
        "/realms/x/token"
    );
    assert_eq!(super::token_path("/oauth2/token", base), "/oauth2/token");
}
