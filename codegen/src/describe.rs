//! A checked spec's resolved model turned into the descriptions of the `tidings-spec` crate
//! that the runtime works from and the sandbox serves: the service, its operations and pages,
//! the schema table and each operation's resource action. One conversion, two users: the
//! generator writes these values as `pub static` items (with their `quote::ToTokens`), and
//! `tidings-sandbox --spec` builds them at run time from a spec it loads.
//!
//! The descriptions hold `&'static` data, so what is built here is leaked: strings once each
//! (interned, so describing the same spec again adds none), lists per call. A served spec lives
//! as long as the process and is described once at start; a build script describes its specs
//! once.

use std::collections::BTreeSet;
use std::sync::Mutex;

use tidings_spec as rt;
use tidings_spec::{
    FieldSchema, Format, PageSchema, ResourceOp, ServiceSchema, ShapeSchema, TypeSchema,
};
use tidings_spec::{Intern, ToStatic};

use crate::model::{IdempotencyMode, SecretKind};
use crate::resolved::{
    AuthInfo, FieldInfo, OperationInfo, PaginationInfo, Service, SignatureInfo, Ty, TypeKind,
    WebSocketInfo, list_filters, resource_shape,
};

/// `text` as a `'static` string, leaked once per distinct text.
fn leak(text: &str) -> &'static str {
    static INTERNED: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut interned = INTERNED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(known) = interned.get(text) {
        return known;
    }
    let leaked: &'static str = Box::leak(text.to_owned().into_boxed_str());
    interned.insert(leaked);
    leaked
}

fn leak_opt(text: Option<&str>) -> Option<&'static str> {
    text.map(leak)
}

fn leak_slice<T>(items: Vec<T>) -> &'static [T] {
    Box::leak(items.into_boxed_slice())
}

/// The interner the vocabulary's `ToStatic` conversions use here: [`leak`] and [`leak_slice`].
struct Leak;

impl Intern for Leak {
    fn text(&mut self, text: &str) -> &'static str {
        leak(text)
    }

    fn list<T: 'static>(&mut self, items: Vec<T>) -> &'static [T] {
        leak_slice(items)
    }
}

/// The runtime's auth scheme for a resolved one.
pub fn auth_scheme(a: &AuthInfo) -> rt::AuthScheme {
    a.method.to_static(&mut Leak)
}

/// The runtime's description of `service` (what the generator emits as `SERVICE`).
pub fn service_spec(service: &Service) -> rt::ServiceSpec {
    let headers = service.rate_limit_headers.as_ref();
    let header = |f: fn(&crate::model::RateLimitHeaders) -> Option<&String>| {
        leak_opt(headers.and_then(f).map(String::as_str))
    };
    rt::ServiceSpec {
        name: leak(service.name()),
        title: leak(service.title()),
        base_url: leak_opt(service.info.base_url.default.as_deref()),
        base_url_env: leak(&service.info.base_url.env),
        credentials: leak_slice(
            service
                .credentials
                .iter()
                .map(|c| rt::CredentialSpec {
                    name: leak(&c.name),
                    env: leak(&c.env),
                    secret: c.secret,
                    value: c.value.as_deref().map(leak),
                })
                .collect(),
        ),
        auth: leak_slice(service.auth.iter().map(auth_scheme).collect()),
        rate_limit: service.rate_limit,
        rate_limit_headers: rt::RateLimitHeaders {
            limit: header(|h| h.limit.as_ref()),
            remaining: header(|h| h.remaining.as_ref()),
            reset: header(|h| h.reset.as_ref()),
            retry_after: header(|h| h.retry_after.as_ref()),
        },
        retry: service.retry.to_static(&mut Leak),
        timeouts: service.timeouts,
        idempotency: service.idempotency.as_ref().map(|i| rt::IdempotencySpec {
            header: leak(&i.header),
            max_len: i.max_len,
        }),
        errors: error_spec(service),
    }
}

fn error_spec(service: &Service) -> rt::ErrorSpec {
    let Some(errors) = &service.errors else {
        return rt::ErrorSpec::DEFAULT;
    };
    rt::ErrorSpec {
        code: leak_opt(errors.code.as_deref()),
        message: leak_opt(errors.message.as_deref()),
        in_success: errors.in_success.as_ref().map(|s| rt::InSuccessSpec {
            field: leak(&s.field),
            when: if s.equals.is_empty() {
                rt::FailureWhen::Present
            } else {
                rt::FailureWhen::Equals(leak_slice(s.equals.iter().map(|v| leak(v)).collect()))
            },
        }),
    }
}

/// How a request body of `op` is encoded.
pub fn body_encoding(op: &OperationInfo) -> rt::BodyEncoding {
    op.body_encoding
}

/// The runtime's description of one operation (what the generator emits in `operations`).
pub fn operation_spec(op: &OperationInfo) -> rt::OperationSpec {
    let (name, path) = (leak(&op.name), leak(&op.path));
    let base = rt::OperationSpec::new(name, op.method, path);
    let mut spec = base
        .with_retry(match op.idempotency {
            IdempotencyMode::Key => rt::RetryClass::IdempotencyKey,
            IdempotencyMode::Safe => rt::RetryClass::Safe,
            IdempotencyMode::None => rt::RetryClass::Never,
        })
        .with_body(op.has_body)
        .with_body_encoding(body_encoding(op));
    if !op.body_media.is_empty() {
        spec = spec.with_body_media(leak_slice(op.body_media.iter().map(|m| leak(m)).collect()));
    }
    if let Some(auth) = &op.auth {
        spec = spec.with_auth(auth_scheme(auth));
    }
    if let Some(max) = op.max_body_bytes {
        spec = spec.max_body_bytes(usize::try_from(max).unwrap_or(usize::MAX));
    }
    if !op.response_headers.is_empty() {
        spec = spec.with_response_headers(leak_slice(
            op.response_headers
                .iter()
                .map(|h| rt::ResponseHeaderSpec {
                    name: leak(&h.name),
                    ty: match &h.ty {
                        Ty::Integer => rt::HeaderType::Integer,
                        Ty::Number => rt::HeaderType::Number,
                        Ty::Boolean => rt::HeaderType::Boolean,
                        Ty::DateTime => rt::HeaderType::DateTime,
                        Ty::Date => rt::HeaderType::Date,
                        _ if !h.values.is_empty() => rt::HeaderType::Enum(leak_slice(
                            h.values.iter().map(|v| leak(v)).collect(),
                        )),
                        _ => rt::HeaderType::Text,
                    },
                })
                .collect(),
        ));
    }
    if !op.error_bodies.is_empty() {
        spec = spec.with_errors(leak_slice(
            op.error_bodies
                .iter()
                .map(|b| rt::ErrorBodySpec {
                    statuses: b.statuses,
                    code: leak_opt(b.code.as_deref()),
                    message: leak_opt(b.message.as_deref()),
                    headers: leak_slice(b.headers.iter().map(|h| leak(h)).collect()),
                })
                .collect(),
        ));
    }
    spec
}

/// The runtime's pagination description (what the generator emits as `PAGINATION` or an
/// operation's `*_PAGES`).
pub fn pagination_spec(p: &PaginationInfo) -> rt::PaginationSpec {
    let items = leak(&p.items_field);
    let style = p.style.to_static(&mut Leak);
    rt::PaginationSpec { items, style }
}

/// A type expression as the resource store reads it.
pub fn ty_schema(ty: &Ty) -> rt::Ty {
    ty.to_schema(&mut Leak)
}

/// The field's format as the store checks it: a string format, or a `datetime`'s wire form
/// (RFC 2822 text, Unix seconds or milliseconds), in which the store keeps, makes up and
/// checks the field's times (a made-up RFC 3339 `date_created` broke Twilio's RFC 2822 decode).
fn format_schema(f: &FieldInfo) -> Option<Format> {
    f.format.filter(|format| *format != Format::Date)
}

fn field_schema(f: &FieldInfo) -> FieldSchema {
    let c = &f.constraints;
    FieldSchema {
        name: leak(&f.wire),
        ty: ty_schema(&f.ty),
        required: f.required,
        nullable: f.nullable,
        read_only: f.read_only,
        write_only: f.write_only,
        format: format_schema(f),
        min_len: c.min_len,
        max_len: c.max_len,
        pattern: c.pattern.as_deref().map(leak),
        default: f.default.as_ref().map(|d| leak(&d.to_string())),
        example: f.example.as_deref().map(leak),
        min_items: c.min_items,
        max_items: c.max_items,
        min: c.min,
        max: c.max,
    }
}

/// The service's types and cursor page as the resource store reads them (the generated
/// server's `defaults::SCHEMA`).
pub fn service_schema(service: &Service) -> ServiceSchema {
    let types = service
        .types
        .iter()
        .map(|t| TypeSchema {
            name: leak(&t.name),
            keeps_other_keys: t.keeps_other_keys,
            shape: match &t.kind {
                TypeKind::Object(fields) => {
                    ShapeSchema::Object(leak_slice(fields.iter().map(field_schema).collect()))
                }
                TypeKind::Enum(values) => {
                    ShapeSchema::Enum(leak_slice(values.iter().map(|v| leak(&v.wire)).collect()))
                }
                TypeKind::Union {
                    tag,
                    content,
                    variants,
                } => ShapeSchema::Union {
                    tag: leak(tag),
                    content: leak_opt(content.as_deref()),
                    variants: leak_slice(
                        variants
                            .iter()
                            .map(|v| (leak(&v.tag), leak_opt(v.ty.as_deref())))
                            .collect(),
                    ),
                },
                TypeKind::Untagged { variants } => ShapeSchema::Untagged(leak_slice(
                    variants
                        .iter()
                        .filter_map(|v| Ty::parse(v.ty.as_deref()?).ok())
                        .map(|ty| ty_schema(&ty))
                        .collect(),
                )),
            },
        })
        .collect();
    let page = match &service.page_style {
        Some(PaginationInfo {
            style:
                rt::PageStyle::Cursor {
                    has_more,
                    after_param,
                    ..
                },
            items_field,
            limit_param,
            generated_page: true,
            ..
        }) => Some(PageSchema {
            limit_param: leak(limit_param.as_deref().unwrap_or("limit")),
            after_param: leak(after_param),
            before_param: leak_opt(
                service
                    .pagination
                    .as_ref()
                    .and_then(|p| p.before_param.as_deref()),
            ),
            items_field: leak(items_field),
            has_more_field: leak(has_more),
        }),
        _ => None,
    };
    ServiceSchema {
        types: leak_slice(types),
        page,
    }
}

/// True when the store answers `op`'s page whole and the answer is paged in the operation's
/// own style afterwards (every style but the service's generated cursor page): a `page<T>`,
/// or a bare `list<T>` its `pagination` pages (by `Link` header, offset, ...).
pub fn pages_after_store(op: &OperationInfo) -> bool {
    matches!(op.response, Some(Ty::Page(_) | Ty::List(_)))
        && op.pagination.as_ref().is_some_and(|p| !p.generated_page)
}

/// One operation's default behaviour on the resource store (the generated server's
/// `defaults::<OP>`).
pub fn resource_op(service: &Service, op: &OperationInfo) -> ResourceOp {
    let shape = resource_shape(service, op);
    let response = match &op.response {
        Some(Ty::Page(item)) if pages_after_store(op) => Some(ty_schema(&Ty::List(item.clone()))),
        Some(ty) => Some(ty_schema(ty)),
        None => None,
    };
    ResourceOp {
        name: leak(&op.name),
        kind: shape.kind,
        collection: leak(&shape.collection),
        item_param: leak_opt(shape.item_param.as_deref()),
        item_field: leak_opt(shape.item_field.as_deref()),
        id_field: leak(&shape.id_field),
        response,
        items: leak_opt(shape.items.as_deref()),
        filters: leak_slice(
            list_filters(service, op)
                .iter()
                .map(|(param, field)| (leak(param), leak(field)))
                .collect(),
        ),
    }
}

/// The runtime's description of a realtime service's WebSocket protocol (what the generator
/// emits as `WEBSOCKET`).
pub fn websocket_spec(service: &Service, ws: &WebSocketInfo) -> rt::WebSocketSpec {
    let names = ws.channel_names.as_ref();
    rt::WebSocketSpec {
        service: leak(service.name()),
        path: leak(&ws.path),
        query: leak_slice(ws.query.iter().map(|(k, v)| (leak(k), leak(v))).collect()),
        protocol: ws.protocol,
        socket_id_pattern: leak_opt(ws.socket_id_pattern.as_deref()),
        channel_names: rt::ChannelNameSpec {
            pattern: leak_opt(names.and_then(|n| n.pattern.as_deref())),
            max_len: names
                .and_then(|n| n.max_len)
                .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
            reserved_prefix: leak_opt(names.and_then(|n| n.reserved_prefix.as_deref())),
        },
        heartbeat: ws.heartbeat,
        reconnect: ws.reconnect,
        client_events: ws.client_events.as_ref().map(|c| rt::ClientEventSpec {
            prefix: leak(&c.prefix),
            max_per_second: c.max_per_second,
        }),
        channel_kinds: leak_slice(
            ws.channel_kinds
                .iter()
                .map(|(name, k)| rt::ChannelKindSpec {
                    name: leak(name),
                    prefix: leak(&k.prefix),
                    auth: k.auth,
                    encrypted: k.encrypted,
                    cache: k.cache,
                    client_events: k.client_events,
                })
                .collect(),
        ),
        messages: leak_slice(
            ws.messages
                .iter()
                .map(|m| rt::MessageSpec {
                    name: leak(&m.name),
                    event: leak(&m.event),
                    direction: m.direction,
                    encoding: m.encoding.unwrap_or(rt::DataEncoding::None),
                    channel: m.channel,
                    role: m.role,
                })
                .collect(),
        ),
        close_codes: leak_slice(
            ws.close_codes
                .iter()
                .map(|c| rt::CloseCodeSpec {
                    from: c.from,
                    to: c.to,
                    action: c.action,
                    min_delay_ms: c.min_delay_ms.unwrap_or(0),
                })
                .collect(),
        ),
    }
}

/// The runtime's description of a signature scheme: the runtime's own for the built-in ones.
pub fn signature_scheme(s: &SignatureInfo) -> &'static rt::SignatureScheme {
    match s.name.as_str() {
        "standard_webhooks" if s.builtin => return &rt::STANDARD_WEBHOOKS,
        "pusher" if s.builtin => return &rt::PUSHER,
        _ => {}
    }
    Box::leak(Box::new(rt::SignatureScheme {
        name: leak(&s.name),
        header: leak(&s.header),
        algorithm: s.algorithm,
        over: s.over.to_static(&mut Leak),
        encoding: s.encoding,
        prefix: leak(&s.prefix),
        separator: s.separator,
        id_header: leak_opt(s.id_header.as_deref()),
        timestamp_header: leak_opt(s.timestamp_header.as_deref()),
        tolerance_s: s.tolerance_s,
        secret: match s.secret_format {
            SecretKind::Text => rt::SecretFormat::Text,
            SecretKind::Base64 => rt::SecretFormat::Base64 {
                prefix: leak(&s.secret_prefix),
            },
        },
        aliases: &[],
    }))
}

/// The runtime's description of what tells a payload type apart.
pub fn webhook_select(select: &rt::Select<rt::Owned>) -> rt::Select {
    select.to_static(&mut Leak)
}
