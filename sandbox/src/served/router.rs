//! The run-time router of a served spec: one handler that matches method and path against the
//! spec's operations, runs the gateway (auth as declared, rate limit, body limits, idempotency),
//! decodes and checks the body and query against the spec's types, serves the operation from
//! the resource store, and answers in the operation's status, page style and error shape.

use std::sync::Arc;

use axum::extract::Request;
use axum::http::{
    HeaderValue, Method,
    header::{ALLOW, CONTENT_TYPE, HOST},
};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value};
use tidings_codegen::check::{Answer, PageStyle};

use super::documented::{created_location, documented_status};
use super::form_fields::{empty_lists, takes_object, typed_fields};
use super::held::{
    asks_to_fail_if_held, described_as_upsert, missing_parent, names_a_create_or_update, upserts,
};
use super::ops::{Served, ServedOp, TokenEndpoint};
use super::params::{in_range, query, typed};
use super::validate;
use crate::server::resources::{ResourceAction, ResourceCall, ServiceSchema, Ty};
use crate::server::{Incoming, MAX_PAGE_SIZE, ServerError, documented_headers, new_request_id};

fn segments(path: &str) -> Vec<String> {
    path.trim_start_matches('/')
        .split('/')
        .map(percent_decode)
        .collect()
}

fn percent_decode(s: &str) -> String {
    url::form_urlencoded::parse(format!("x={}", s.replace('+', "%2B")).as_bytes())
        .next()
        .map_or_else(|| s.to_owned(), |(_, v)| v.into_owned())
}

/// Answers one request, and shows it in the inbox when one runs.
pub(crate) async fn handle(served: Arc<Served>, request: Request) -> Response {
    let asked = served.inbox.as_ref().map(|_| {
        let path = request.uri().path_and_query().map_or("/", |p| p.as_str());
        (
            request.method().clone(),
            redact_query(path, &served.secret_params),
        )
    });
    let mut sent = None;
    let request_path = request.uri().path().to_owned();
    let (op, response) = respond(&served, request, &mut sent).await;
    let response = match op {
        Some(op) => documented_status(&op.info, response),
        None => response,
    };
    let response = served
        .error_shape
        .apply(served.schema, response, &request_path)
        .await;
    let response = match op {
        Some(op) => {
            super::shape::operation_error(
                served.schema,
                &served.error_shape,
                &op.info,
                response,
                &request_path,
            )
            .await
        }
        None => response,
    };
    match (&served.inbox, asked) {
        (Some(inbox), Some((method, path))) => {
            record(inbox, &served, op, &method, &path, sent, response).await
        }
        _ => response,
    }
}

/// Shows the call in the inbox; the answer, unchanged. A token endpoint's bodies are not kept
/// (they carry the client secret and the token).
async fn record(
    inbox: &crate::inbox::Inbox,
    served: &Served,
    op: Option<&ServedOp>,
    method: &Method,
    path: &str,
    sent: Option<bytes::Bytes>,
    response: Response,
) -> Response {
    let (parts, body) = response.into_parts();
    // Answers are built in memory: collecting one is a move, not a copy. One that cannot be
    // read is not answered as an empty body.
    let body = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(body) => body,
        Err(e) => {
            tracing::error!(service = served.name, error = %e, "cannot read an answer to show it");
            return ServerError::internal(format!("the answer could not be read: {e}"))
                .to_response_as(&new_request_id(), &served.gateway.service().errors);
        }
    };
    let token = served
        .token_endpoint
        .as_ref()
        .is_some_and(|t| path.split('?').next() == Some(t.path.as_str()));
    let empty = bytes::Bytes::new();
    inbox.record_call(&crate::inbox::CallSeen {
        service: served.name,
        operation: op.map(|o| o.info.name.as_str()),
        method: method.as_str(),
        path,
        status: parts.status.as_u16(),
        request_body: (!token).then(|| sent.as_ref().unwrap_or(&empty).as_ref()),
        response_body: (!token).then_some(body.as_ref()),
    });
    Response::from_parts(parts, axum::body::Body::from(body))
}

/// `path` (with its query) with the value of each query parameter in `secret` replaced by
/// `<redacted>`.
fn redact_query(path: &str, secret: &[&str]) -> String {
    let Some((path, query)) = path.split_once('?') else {
        return path.to_owned();
    };
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| {
            let name = pair.split('=').next().unwrap_or_default();
            if secret.iter().any(|s| percent_decode(name) == *s) {
                format!("{name}=<redacted>")
            } else {
                pair.to_owned()
            }
        })
        .collect();
    format!("{path}?{}", pairs.join("&"))
}

/// The answer, and the operation it is of (none when no operation's route matched).
async fn respond<'s>(
    served: &'s Arc<Served>,
    request: Request,
    sent: &mut Option<bytes::Bytes>,
) -> (Option<&'s ServedOp>, Response) {
    if let Some(endpoint) = &served.token_endpoint
        && request.uri().path() == endpoint.path
    {
        return (None, issue_token(served, endpoint, &request));
    }
    if request.uri().path() == super::TRIGGER_PREFIX.trim_end_matches('/')
        && request.method() == Method::GET
    {
        let incoming = match Incoming::accept_with_path(
            &served.gateway,
            &super::webhooks::DELIVERIES_OP,
            request,
            Some(Vec::new()),
        )
        .await
        {
            Ok(incoming) => incoming,
            Err(response) => return (None, response),
        };
        let list = served.webhooks.deliveries();
        return (None, incoming.finish(Ok(list), 200));
    }
    if let Some(name) = request.uri().path().strip_prefix(super::TRIGGER_PREFIX)
        && request.method() == Method::POST
    {
        let name = percent_decode(name);
        let incoming = match Incoming::accept_with_path(
            &served.gateway,
            &super::webhooks::TRIGGER_OP,
            request,
            Some(vec![("name".to_owned(), name.clone())]),
        )
        .await
        {
            Ok(incoming) => incoming,
            Err(response) => return (None, response),
        };
        *sent = Some(incoming.body_bytes());
        let result = served.webhooks.trigger(served.schema, &name, &incoming);
        return (None, incoming.finish(result, 202));
    }
    let path = segments(request.uri().path());
    // The best fit so far: literal segments matched, its parameters, the operations on it.
    type Fit<'a> = (usize, Vec<(&'static str, String)>, Vec<&'a ServedOp>);
    let mut best: Option<Fit<'_>> = None;
    for op in &served.ops {
        let Some((score, params)) = op.template.matches(&path) else {
            continue;
        };
        match &mut best {
            Some((s, _, ops)) if *s == score => ops.push(op),
            Some((s, _, _)) if *s > score => {}
            _ => best = Some((score, params, vec![op])),
        }
    }
    let errors = &served.gateway.service().errors;
    let Some((_, params, candidates)) = best else {
        let response = ServerError::not_found(format!("`{}`", request.uri().path()))
            .to_response_as(&new_request_id(), errors);
        return (None, response);
    };
    let Some(op) = candidates
        .iter()
        .find(|o| o.method == request.method())
        .copied()
    else {
        let allow: Vec<&str> = candidates.iter().map(|o| o.method.as_str()).collect();
        let mut response = ServerError::new(
            405,
            "method_not_allowed",
            format!("`{}` allows {}", request.uri().path(), allow.join(", ")),
        )
        .to_response_as(&new_request_id(), errors);
        if let Ok(value) = HeaderValue::from_str(&allow.join(", ")) {
            response.headers_mut().insert(ALLOW, value);
        }
        return (None, response);
    };
    // The chosen operation's own names for the path's values: operations on one path may name
    // its parameters differently (Zulip's `GET /users/{email}` beside `PATCH /users/{user_id}`).
    let params = op.template.matches(&path).map_or(params, |(_, own)| own);
    let owned: Vec<(String, String)> = params
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    // What a documented `Location` (and an item's link to itself) is made of.
    let (request_path, asked_params) = (request.uri().path().to_owned(), params.clone());
    let incoming =
        match Incoming::accept_with_path(&served.gateway, op.spec, request, Some(owned)).await {
            // Its headers are added below, `Location` by the operation that gets the item.
            Ok(incoming) => incoming.without_documented_headers(),
            Err(response) => return (Some(op), response),
        };
    *sent = Some(incoming.body_bytes());
    let mut call = match inputs(served, op, &incoming, params) {
        Ok(call) => call,
        Err(error) => return (Some(op), incoming.reject(error)),
    };
    // A parent named by another of its values (a Sync list by its unique name): its id.
    served.store.parents_by_alias(&op.resource, &mut call);
    // An item named by another of its values (Brevo's contacts by email, Postmark's templates
    // by alias): the one item that holds it.
    if let Some(id) = served.store.alias_of(&op.resource, &call)
        && let Some(slot) = call
            .path
            .iter_mut()
            .find(|(name, _)| Some(*name) == op.resource.item_param)
    {
        call.named_as = Some(std::mem::replace(&mut slot.1, id));
    }
    // An item a method names by another of its values than the one it keys by (Rocket.Chat's
    // `users.info?username=`): the id, as if sent.
    if let (Some(id), Some(field)) = (
        served.store.named_otherwise(&op.resource, &call),
        op.resource.item_field,
    ) {
        let into = if call.body.is_object() {
            &mut call.body
        } else {
            &mut call.query
        };
        if let Some(map) = into.as_object_mut() {
            map.insert(field.to_owned(), Value::String(id));
        }
    }
    // An action on an item the store does not hold, where the document says so with a 404
    // (Telnyx's `POST /calls/{id}/actions/answer`: "Call not found"), is that 404; so is one
    // on an item its request names (Slack's `conversations.archive {channel}`, whose get of
    // that item answers 404 too) when the document lists no refusal of its own.
    let named_in_request = op.resource.item_param.is_none() && op.resource.item_field.is_some();
    let refusals_listed = op.info.errors.iter().any(|s| (400..500).contains(s));
    // A read of a thing of an item's own, in a collection whose items are made here
    // (TaskRouter's `GET /v1/Workspaces/{WorkspaceSid}/Statistics`), where the document
    // lists no refusal: made up for a workspace that does not exist, it is a 404.
    let read_of_its_own = op.method == Method::GET
        && op.resource.item_param.is_some()
        && !refusals_listed
        && served.ops.iter().any(|o| {
            o.resource.kind == ResourceAction::Create
                && o.resource.collection == op.resource.collection
        });
    if (op.info.errors.contains(&404) || (named_in_request && !refusals_listed) || read_of_its_own)
        && !super::held::the_callers_own(served, op, &call)
        && let Some(missing) = served.store.missing_item(&op.resource, &call)
    {
        return (Some(op), incoming.reject(missing));
    }
    // A create under a parent the store does not hold: 404 (see `missing_parent`).
    if let Some(missing) = missing_parent(served, op, &call) {
        return (Some(op), incoming.reject(missing));
    }
    // A replace of an item the store does not hold, in a collection with a create of its
    // own (ClickSend's `PUT /v3/lists/{list_id}/contacts/{contact_id}`, OneSignal's `PUT
    // /apps/{app_id}` "Update an app", whose listed errors are 400 and a `default`): that
    // 404, not a create under an id the client made up. One named or described as a
    // create-or-update (Knock's users, Ably's device registrations) creates.
    if op.resource.kind == ResourceAction::Replace
        && !names_a_create_or_update(op.resource.name)
        && !described_as_upsert(&op.info)
        && served.ops.iter().any(|o| {
            o.resource.kind == ResourceAction::Create
                && o.resource.collection == op.resource.collection
        })
        && let Some(missing) = served.store.missing_replaced(&op.resource, &call)
    {
        return (Some(op), incoming.reject(missing));
    }
    // A create of an item held is refused, not a silent replace of what was acknowledged
    // before (Mandrill's `templates/add` of a name held, Sendbird's `POST /v3/users` of a
    // `user_id` held): with a 409 where the document has one, else its client error for a
    // refused body, else a 409. An operation named or described as an upsert replaces
    // (Novu's `POST /v2/subscribers`: "if the subscriber already exists, it will be
    // updated"), unless the call asks it to fail then (its `failIfExists=true`).
    super::held::named_by_what_it_adds(op, &mut call);
    // An attach by identifier answers (again: idempotent) the item it names, or refuses it.
    let attached = super::held::attached(served, op, &call.body);
    // An update (an upsert by name) is checked too: for a unique name another item holds.
    let updates = matches!(
        op.resource.kind,
        ResourceAction::Merge | ResourceAction::Replace
    );
    if (!upserts(&op.info) || asks_to_fail_if_held(&call) || updates)
        && !matches!(attached, Some(Ok(_)))
        && let Some(held) = served.store.already_held(&op.resource, &call)
    {
        let status = [409, 422, 400]
            .into_iter()
            .find(|s| op.info.errors.contains(s))
            .unwrap_or(409);
        let param = held.param().unwrap_or(op.resource.id_field).to_owned();
        let held =
            crate::server::ServerError::new(status, held.code(), held.message()).with_param(param);
        return (Some(op), incoming.reject(held));
    }
    // A create-or-update of one value updates the item that holds it.
    if upserts(&op.info)
        && let Some(id) = served.store.keyed_by_its_one_value(&op.resource, &call)
        && let Some(body) = call.body.as_object_mut()
    {
        body.insert(op.resource.id_field.to_owned(), Value::String(id));
    }
    if let Some(change) = &op.cancels {
        call.body = change.clone();
    }
    if let Some(Err(missing)) = attached {
        return (Some(op), incoming.reject(missing));
    }
    if let Some(Ok(item)) = &attached {
        call.body = item.clone(); // kept as held: listed and detached with its fields
    }
    // The children its body lists, checked before anything is kept.
    let children = match super::children::prepared(served, op, &call.body) {
        Ok(children) => children,
        Err(refused) => return (Some(op), incoming.reject(refused)),
    };
    let resource = super::held::written_by_its_update(served, op);
    let mut result = served.store.serve(served.schema, &resource, &call).await;
    if let Ok(answer) = &result
        && !children.is_empty()
        && let Err(failed) = super::children::create(served, op, &call.path, answer, children).await
    {
        result = Err(failed);
    }
    if let (Some(Ok(item)), Ok(answer)) = (attached, &mut result) {
        *answer = item;
    }
    // A cancel answering a confirmation (`{"success": true}`), not the item it kept.
    if let (Some(_), Ok(Value::Object(answer)), Some(ty)) =
        (&op.cancels, &mut result, &op.resource.response)
    {
        for f in served.schema.object_fields(ty).unwrap_or_default() {
            if f.ty == Ty::Boolean && crate::server::resources::is_success_flag(f.name) {
                answer.insert(f.name.to_owned(), Value::Bool(true));
            }
        }
    }
    // A delete that answers nothing, of an item the store does not hold, where the document
    // lists its errors and no 404 among them: the success it documents (Customer.io's `DELETE
    // /customers/{id}`, 200 or 401, is 200 whether or not the person exists). The item is
    // gone either way. A document that lists no error (or only a `default`) keeps the 404.
    let covers_404 = op
        .info
        .error_bodies
        .iter()
        .any(|b| (b.statuses.0..=b.statuses.1).contains(&404));
    if op.resource.kind == ResourceAction::Delete
        && op.info.response.is_none()
        && !op.info.errors.is_empty()
        && !op.info.errors.contains(&404)
        && !covers_404
        && result.as_ref().is_err_and(|e| e.status() == 404)
    {
        result = Ok(Value::Null);
    }
    if let Ok(value) = &mut result {
        let context = incoming.context();
        let host = context.headers.get(HOST).and_then(|h| h.to_str().ok());
        super::documented::self_links(value, (op.resource.id_field, host), |item| {
            created_location(served, op, &request_path, &asked_params, Some(item))
        });
    }
    let item = match &result {
        Ok(value) if !op.info.response_headers.is_empty() => Some(value.clone()),
        _ => None,
    };
    let mut response = answer(served.schema, op, incoming, result);
    if response.status().is_success() && !op.info.response_headers.is_empty() {
        let location = || created_location(served, op, &request_path, &asked_params, item.as_ref());
        let body = item.as_ref().map(Value::to_string).unwrap_or_default();
        documented_headers(op.spec, location, body.as_bytes(), &mut response);
    }
    (Some(op), response)
}

/// `POST <token_url>` with the client id and secret as HTTP Basic (RFC 6749 section 2.3.1):
/// the access token, as a client-credentials grant answers it.
fn issue_token(served: &Served, endpoint: &TokenEndpoint, request: &Request) -> Response {
    use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
    use base64::Engine as _;
    let errors = &served.gateway.service().errors;
    if request.method() != Method::POST {
        return ServerError::new(405, "method_not_allowed", "the token endpoint takes POST")
            .to_response_as(&new_request_id(), errors);
    }
    let presented = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.trim()
                .strip_prefix("Basic ")
                .or(v.trim().strip_prefix("basic "))
        })
        .and_then(|b| {
            base64::engine::general_purpose::STANDARD
                .decode(b.trim())
                .ok()
        })
        .and_then(|b| String::from_utf8(b).ok());
    // Client id and secret are form-encoded before Basic (RFC 6749 section 2.3.1).
    let form_decoded = |text: &str| {
        url::form_urlencoded::parse(format!("x={text}").as_bytes())
            .next()
            .map_or_else(String::new, |(_, v)| v.into_owned())
    };
    let accepted = presented
        .as_deref()
        .and_then(|p| p.split_once(':'))
        .is_some_and(|(id, secret)| {
            served
                .gateway
                .accepts(endpoint.client_id, &form_decoded(id))
                & served
                    .gateway
                    .accepts(endpoint.client_secret, &form_decoded(secret))
        });
    if !accepted {
        let body = serde_json::json!({
            "error": "invalid_client",
            "error_description": "send the client id and secret as HTTP Basic",
        });
        let mut response = (axum::http::StatusCode::UNAUTHORIZED, body.to_string()).into_response();
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        return response;
    }
    let body = serde_json::json!({
        "access_token": endpoint.token,
        "token_type": "Bearer",
        "expires_in": 3600,
    });
    let mut response = body.to_string().into_response();
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// The call's path parameters, query and body as JSON, checked against the spec.
fn inputs(
    served: &Served,
    op: &ServedOp,
    incoming: &Incoming,
    path: Vec<(&'static str, String)>,
) -> Result<ResourceCall, ServerError> {
    super::params::path(&op.info, &path)?;
    // Header parameters: a required one present, each typed and within its limits.
    if !op.info.headers.is_empty() {
        let headers = incoming.context().headers;
        for p in &op.info.headers {
            match headers.get(p.wire.as_str()).map(|v| v.to_str()) {
                None if p.required && p.from_credential.is_none() => {
                    return Err(ServerError::validation(
                        p.wire.clone(),
                        format!("header `{}` is required", p.wire),
                    ));
                }
                None => {}
                Some(Err(_)) => {
                    return Err(ServerError::validation(
                        p.wire.clone(),
                        format!("header parameter `{}` must be visible ASCII text", p.wire),
                    ));
                }
                Some(Ok(text)) => {
                    let value = typed(&p.ty, &Value::String(text.to_owned()), &p.wire, "header")?;
                    in_range(&value, &p.constraints, &p.wire, "header")?;
                }
            }
        }
    }
    // No bytes at all is no body; whitespace alone is JSON with nothing in it, refused as such.
    let empty = incoming.raw_body().is_empty();
    let body = if op.spec.body_encoding == tidings_runtime::spec::BodyEncoding::Binary {
        // The bytes as they came (their media type checked at the gate); the store keeps what
        // the answer holds, not the file.
        if empty && op.body.is_some() {
            return Err(ServerError::bad_request(format!(
                "`{}` needs a body: the file's bytes",
                op.info.name
            )));
        }
        if empty {
            Value::Null
        } else {
            super::files::stored_file(incoming)
        }
    } else if op.info.has_body && !empty {
        let value: Value = match op.spec.body_encoding {
            // A form where the spec says a JSON body may come as one (Mailgun's bounces): its
            // fields as the body's, one item of a list body.
            tidings_runtime::spec::BodyEncoding::Json if incoming.sent_a_form() => {
                let one = match &op.body {
                    Some(Ty::List(item)) => Some(*item),
                    ty => ty.as_ref(),
                };
                let style = tidings_runtime::spec::FormStyle::DEFAULT;
                let fields = typed_fields(served.schema, one, incoming.form(style)?);
                match &op.body {
                    Some(Ty::List(_)) => Value::Array(vec![fields]),
                    _ => fields,
                }
            }
            // A list body (`POST /email/batch` takes an array of messages) is an array.
            tidings_runtime::spec::BodyEncoding::Json if matches!(op.body, Some(Ty::List(_))) => {
                incoming.json_array()?
            }
            // `body: json` takes any JSON value, `null` included; a body of text, a number, a
            // flag or an enum (Elastic Email's domain verification sends `"Http"`) is that
            // JSON value, checked against its type below.
            tidings_runtime::spec::BodyEncoding::Json
                if op
                    .body
                    .as_ref()
                    .is_some_and(|ty| !takes_object(served.schema, ty)) =>
            {
                incoming.json_any()?
            }
            tidings_runtime::spec::BodyEncoding::Json => incoming.json()?,
            // Form fields are text: read as the spec's types first (`Attempt=2` is a number).
            // Either form encoding is taken (see `Incoming::form`).
            tidings_runtime::spec::BodyEncoding::Form(style)
            | tidings_runtime::spec::BodyEncoding::Multipart(style) => empty_lists(
                served.schema,
                op.body.as_ref(),
                typed_fields(served.schema, op.body.as_ref(), incoming.form(style)?),
            ),
            tidings_runtime::spec::BodyEncoding::Binary => Value::Null,
        };
        super::body::checked_body(served, op, value)?
    } else if op.info.body.is_some()
        && op.spec.body_encoding == tidings_runtime::spec::BodyEncoding::Json
    {
        // A declared body that is missing: as the typed server, "needs a JSON body".
        let _: Value = incoming.json()?;
        Value::Null
    } else if let (Some(ty), true) = (&op.body, op.info.has_body) {
        // An empty form is a form without fields: its required ones are missing.
        let value = Value::Object(Map::new());
        // No body at all (not even a form's media type) where the operation takes one with
        // required fields; with none required it is the empty form (Zulip's bare `DELETE
        // /users/{user_id}`, whose form is optional).
        if !incoming.context().headers.contains_key(CONTENT_TYPE)
            && validate::check(served.schema, ty, &value, "").is_err()
        {
            return Err(ServerError::bad_request(format!(
                "`{}` needs a {} body",
                op.info.name,
                match op.spec.body_encoding {
                    tidings_runtime::spec::BodyEncoding::Multipart(_) => "multipart/form-data",
                    _ => "application/x-www-form-urlencoded",
                }
            )));
        }
        validate::check(served.schema, ty, &value, "")?;
        // A new item of an empty form is the caller's too (Twilio Sync's `create()` with no
        // arguments got the account `AC000…0`).
        match op.resource.kind {
            ResourceAction::Create => super::held::with_caller(
                served,
                op,
                validate::with_defaults(served.schema, ty, value),
            ),
            _ => value,
        }
    } else {
        Value::Null
    };
    // A form's nested fields come one by one (`Bindings.Email.Name`, `a[b]`), unless each
    // object comes whole as its JSON text.
    let merge_nested = match op.spec.body_encoding {
        tidings_runtime::spec::BodyEncoding::Form(style)
        | tidings_runtime::spec::BodyEncoding::Multipart(style) => {
            style.nested != tidings_runtime::spec::NestedStyle::Json
        }
        _ => false,
    };
    let query = Value::Object(query(served.schema, op, incoming)?);
    Ok(op.call(served.schema, path, query, body, merge_nested))
}

fn answer(
    schema: &ServiceSchema,
    op: &ServedOp,
    mut incoming: Incoming,
    result: Result<Value, ServerError>,
) -> Response {
    // A create that documents 201 among its statuses answers it (Twilio's service phone
    // numbers list `[200, 201]`: 200 only for an example of another case).
    let status = match op.resource.kind {
        ResourceAction::Create if op.info.success_statuses.contains(&201) => 201,
        _ => op.info.success_status,
    };
    let result = match op.info.answer {
        Answer::Bytes => result,
        _ => result.map(|mut v| {
            super::files::without_files(&mut v);
            v
        }),
    };
    match (op.info.answer, &op.info.response) {
        (Answer::Text, _) => incoming.finish_text(
            result.map(|v| v.as_str().map(str::to_owned).unwrap_or_default()),
            status,
        ),
        (Answer::Bytes, _) => {
            let (bytes, media) = match result {
                Ok(item) => {
                    let (bytes, media) = super::files::file_of(&item);
                    (Ok(bytes), media)
                }
                Err(e) => (Err(e), None),
            };
            let mut extra = axum::http::HeaderMap::new();
            if let Some(media) = media.and_then(|m| m.parse().ok()) {
                extra.insert(axum::http::header::CONTENT_TYPE, media);
            }
            incoming.finish_encoded(
                bytes.map(|b| (status, bytes::Bytes::from(b))),
                "application/octet-stream",
                extra,
            )
        }
        (Answer::Ignored, _) | (_, None) => incoming.finish_empty(result.map(|_| ()), status),
        (Answer::Json, Some(_)) => match op.pages {
            Some(pages) => {
                let size = op.info.pagination.as_ref().and_then(|p| match &p.style {
                    PageStyle::Page { size_param, .. } => size_param.as_deref(),
                    _ => p.limit_param.as_deref(),
                });
                // A page size left out is the one the spec documents (Twilio's `PageSize`,
                // "The default is 50"), not the sandbox's own. Where it documents none and the
                // answer is a bare array, which cannot say more follow (Elastic Email's
                // `GET /contacts?limit=&offset=`), the most a page holds: a client that asks
                // for no size is not cut short in silence.
                let bare = op.resource.items.is_none();
                if let Some(default) = size.and_then(|name| {
                    let p = op.info.query.iter().find(|p| p.wire == name)?;
                    let most = p
                        .constraints
                        .max
                        .map_or(MAX_PAGE_SIZE as f64, |m| m.floor());
                    let most = (most >= 1.0).then_some(most as u64);
                    p.default
                        .as_ref()
                        .and_then(|d| d.as_u64())
                        .or(most.filter(|_| bare))
                }) {
                    incoming.default_query_param(size.unwrap_or_default(), &default.to_string());
                }
                if op.resource.items.is_some() {
                    let absolute = op.next_link_is_absolute(schema);
                    let cursor = super::pages::cursor_param(op);
                    if let Some(param) = cursor {
                        super::pages::cursor_in(&mut incoming, param);
                    }
                    // What a page's `meta` says beside its style's field: the page's number,
                    // its size, how many items the whole list has, links to this page, the
                    // first and the one before, where the type declares them.
                    let declared = crate::server::page_meta_holder(pages).and_then(|holder| {
                        op.resource
                            .response
                            .as_ref()
                            .and_then(|ty| schema.object_at(ty, holder))
                    });
                    // The style's fields may sit in an object the answer left out (Infobip's
                    // optional `paging`, whose fields are required): filled in after paging.
                    // Keys the type does not declare stay as they were.
                    let complete = |body: Value, window: &crate::server::PageWindow| match (
                        &op.resource.response,
                        body,
                    ) {
                        (Some(ty), Value::Object(mut given)) => {
                            let whole = Value::Object(given.clone());
                            let filled =
                                crate::server::resources::fill(schema, ty, Some(&whole), 0, None);
                            if let Value::Object(filled) = &filled {
                                given.extend(filled.clone());
                            }
                            let mut body = Value::Object(given);
                            let typed = (schema, op.resource.response.as_ref());
                            let paged = (pages, window);
                            super::pages::last_page_mark(typed, &whole, &filled, &mut body, paged);
                            crate::server::page_facts(&mut body, pages, window, declared);
                            if let (Some(param), PageStyle::NextUrl { next_field }) =
                                (cursor, &pages.style)
                            {
                                super::pages::cursors_out(&mut body, next_field, param);
                            }
                            body
                        }
                        (_, body) => body,
                    };
                    return incoming
                        .finish_page_object(result, pages, size, status, absolute, complete);
                }
                let items = result.map(|v| match v {
                    Value::Array(items) => items,
                    other => vec![other],
                });
                incoming.finish_page(items, pages, size, status)
            }
            None => {
                let query = incoming.raw_query().to_owned();
                let result = result.map(|mut answer| {
                    super::pages::whole_list(schema, op, &mut answer);
                    super::window::window(op, &query, &mut answer);
                    super::window::anchored(schema, op, &query, &mut answer);
                    answer
                });
                incoming.finish(result, status)
            }
        },
    }
}
