//! Checking the service-wide sections: identity, credentials, limits, retry,
//! timeouts, idempotency, pagination and the error body; each becomes its resolved form with
//! the defaults of [`crate::resolved::defaults`] applied.

use std::collections::HashMap;

use super::Checker;
use crate::model::{Idempotency, Pagination, RateLimitHeaders, Source, SpecFile};
use crate::names::is_snake;
use crate::resolved::{
    CredentialInfo, ErrorsInfo, InSuccessInfo, OperationInfo, Origin, Owned, RateLimitSpec,
    RetrySpec, TimeoutSpec, Ty, TypeInfo, TypeKind, defaults,
};

impl Checker<'_> {
    /// Identity and credentials.
    pub(super) fn service(&mut self) -> Vec<CredentialInfo> {
        // A broken section was reported by the loader and stood in for: nothing more to say.
        if !self.broken.iter().any(|b| b == "service") {
            self.service_identity();
        }
        self.credentials()
    }

    /// The `service` section: name, provenance, base URL.
    fn service_identity(&mut self) {
        let s = &self.spec.service;
        self.require_source("service", s.source);
        if !is_snake(&s.name) || crate::names::is_keyword(&s.name) {
            let d = self.error_at_value(
                "service.name",
                format!(
                    "service name `{}` is not a snake_case Rust identifier",
                    s.name
                ),
            );
            d.expected = Some("lower-case letters, digits and `_`, like `email`".into());
        }
        if let Some(p) = &s.pricing {
            self.require_source("service.pricing", p.source);
        }
        if let Some(p) = &s.style {
            self.require_source("service.style", p.source);
        }
        if let Some(v) = &s.version {
            self.require_source("service.version", v.source);
        }
        self.require_source("service.base_url", s.base_url.source);
        let env = s.base_url.env.clone();
        self.env_var("service.base_url.env", &env);
        if let Some(url) = &s.base_url.default
            && (!(url.starts_with("http://") || url.starts_with("https://")) || url.ends_with('/'))
        {
            let d = self.error_at_value(
                "service.base_url.default",
                format!("`{url}` is not a base URL"),
            );
            d.expected =
                Some("http:// or https:// followed by a host, without a trailing `/`".into());
        }
    }

    /// The credentials section.
    fn credentials(&mut self) -> Vec<CredentialInfo> {
        let creds: Vec<(String, String, Option<Source>, bool)> = self
            .spec
            .credentials
            .iter()
            .map(|(n, c)| {
                (
                    n.clone(),
                    c.env.clone(),
                    c.source,
                    c.secret && c.value.is_some(),
                )
            })
            .collect();
        for (name, env, source, secret_value) in creds {
            let path = format!("credentials.{name}");
            self.require_source(&path, source);
            if secret_value {
                let d = self.error(
                    &format!("{path}.value"),
                    "a secret credential cannot have a fixed value: it would be in the source",
                );
                d.expected = Some("`secret: false` beside `value`, or no `value`".into());
            }
            if !is_snake(&name) {
                let d = self.error(&path, format!("credential name `{name}` is not snake_case"));
                d.expected = Some("like `api_key`".into());
            }
            self.env_var(&format!("{path}.env"), &env);
        }
        self.spec
            .credentials
            .iter()
            .map(|(name, c)| CredentialInfo {
                name: name.clone(),
                env: c.env.clone(),
                secret: c.secret,
                value: c.value.clone(),
            })
            .collect()
    }

    /// Limits, retry, timeouts, idempotency, pagination and the error body.
    pub(super) fn limits(&mut self) -> Limits {
        if let Some(limits) = &self.spec.limits {
            if let Some(rate) = &limits.rate {
                self.require_source("limits.rate", rate.source);
                match (rate.requests, rate.per) {
                    (Some(0), _) => {
                        let d = self.error_at_value(
                            "limits.rate.requests",
                            "a rate limit of 0 requests allows nothing",
                        );
                        d.expected = Some("a positive number of requests".into());
                        d.hint = Some("leave `requests` out when the limit is not shown".into());
                    }
                    (Some(_), None) => {
                        let d = self.error("limits.rate", "a rate limit needs its window");
                        d.expected = Some("`per: second`, `per: minute` or `per: hour`".into());
                    }
                    _ => {}
                }
            }
            if let Some(h) = &limits.headers {
                self.require_source("limits.headers", h.source);
            }
            let sizes: Vec<(String, Option<Source>, Option<u64>)> = limits
                .sizes
                .iter()
                .map(|(n, s)| (n.clone(), s.source, s.max))
                .collect();
            for (name, source, max) in sizes {
                self.require_source(&format!("limits.sizes.{name}"), source);
                if max == Some(0) {
                    self.error_at_value(
                        &format!("limits.sizes.{name}.max"),
                        format!("size limit `{name}` of 0 allows nothing"),
                    );
                }
            }
        }
        if let Some(retry) = &self.spec.retry {
            self.require_source("retry", retry.source);
            if retry.max_attempts == 0 {
                let d = self.error_at_value(
                    "retry.max_attempts",
                    "`max_attempts` counts the first attempt, so it is at least 1",
                );
                d.expected = Some("1 or more".into());
            }
            if retry.backoff.base_ms > retry.backoff.cap_ms {
                self.error(
                    "retry.backoff",
                    format!(
                        "backoff base {} ms is above its cap {} ms",
                        retry.backoff.base_ms, retry.backoff.cap_ms
                    ),
                );
            }
            let bad: Vec<u16> = retry
                .statuses
                .iter()
                .copied()
                .filter(|s| !(100..=599).contains(s))
                .collect();
            for s in bad {
                let d = self.error_at_value("retry.statuses", format!("{s} is not an HTTP status"));
                d.expected = Some("a number from 100 to 599".into());
            }
            if retry.budget_percent.is_some_and(|p| p > 100) {
                self.error_at_value(
                    "retry.budget_percent",
                    "a retry budget is a percentage from 0 to 100",
                );
            }
        }
        if let Some(t) = &self.spec.timeouts {
            self.require_source("timeouts", t.source);
            if t.connect_ms == 0 || t.attempt_ms == 0 || t.total_ms == Some(0) {
                self.error("timeouts", "timeouts must be above 0 ms");
            }
            // One policy: connecting is part of an attempt, an attempt part of the call.
            let total = t
                .total_ms
                .unwrap_or(tidings_spec::defaults::TOTAL_TIMEOUT_MS);
            if t.connect_ms > t.attempt_ms {
                self.error_at_value(
                    "timeouts.connect_ms",
                    format!(
                        "the connect timeout ({} ms) is longer than an attempt ({} ms), which includes connecting",
                        t.connect_ms, t.attempt_ms
                    ),
                );
            }
            if t.attempt_ms > total {
                let whose = if t.total_ms.is_some() {
                    "the call deadline"
                } else {
                    "the default call deadline"
                };
                self.error_at_value(
                    "timeouts.attempt_ms",
                    format!(
                        "an attempt ({} ms) is longer than {whose} ({total} ms), so it could never time out by itself; lower `attempt_ms` or raise `total_ms`",
                        t.attempt_ms
                    ),
                );
            }
        }
        if let Some(i) = &self.spec.idempotency {
            self.require_source("idempotency", i.source);
            if i.max_len == 0 {
                self.error_at_value(
                    "idempotency.max_len",
                    "an idempotency key of length 0 cannot be sent",
                );
            }
        }
        if let Some(p) = &self.spec.pagination {
            self.require_source("pagination", p.source);
        }
        let mut errors = None;
        if let Some(e) = &self.spec.errors {
            let source = self.require_source("errors", e.source);
            let ty = match &e.ty {
                Some(ty) => {
                    let ty = ty.clone();
                    self.type_ref("errors.type", &ty)
                }
                None => None,
            };
            let path_or = |given: &Option<String>, default: &str| match given.as_deref() {
                Some("none") => None,
                Some(p) => Some(p.to_owned()),
                None => Some(default.to_owned()),
            };
            let in_success = e.in_success.as_ref().map(|s| InSuccessInfo {
                field: s.field.clone(),
                equals: s.equals.clone(),
            });
            if let Some(s) = &e.in_success {
                match (s.equals.is_empty(), s.present) {
                    (true, false) => {
                        let d = self.error(
                            "errors.in_success",
                            "`in_success` needs what of the field means failure",
                        );
                        d.expected = Some("`equals: [failed, error]` or `present: true`".into());
                    }
                    (false, true) => {
                        self.error(
                            "errors.in_success.present",
                            "`in_success` takes `equals` or `present: true`, not both",
                        );
                    }
                    _ => {}
                }
            }
            errors = Some(ErrorsInfo {
                ty,
                codes: e.codes.clone(),
                origin: Origin {
                    source,
                    note: e.note.clone(),
                    conflict: e.conflict.clone(),
                },
                code: path_or(&e.code, defaults::ERROR_CODE_PATH),
                message: path_or(&e.message, defaults::ERROR_MESSAGE_PATH),
                in_success,
            });
            let codes: Vec<(String, Vec<u16>)> = e
                .codes
                .iter()
                .map(|(k, v)| (k.clone(), v.status.clone()))
                .collect();
            let mut variants: HashMap<String, String> = HashMap::new();
            for (code, statuses) in codes {
                let variant = crate::names::error_code_variant(&code);
                if variant == "Unknown" {
                    self.error(
                        &format!("errors.codes.{code}"),
                        format!("error code `{code}` clashes with `ErrorCode::Unknown`, which keeps codes the spec does not list"),
                    );
                } else if let Some(other) = variants.insert(variant.clone(), code.clone()) {
                    self.error(
                        &format!("errors.codes.{code}"),
                        format!(
                            "error codes `{other}` and `{code}` both become `ErrorCode::{variant}`"
                        ),
                    );
                }
                for s in statuses {
                    // With `in_success`, a failure can arrive in a 2xx answer too.
                    let in_2xx = e.in_success.is_some() && (200..=299).contains(&s);
                    if !(400..=599).contains(&s) && !in_2xx {
                        self.error_at_value(
                            &format!("errors.codes.{code}.status"),
                            format!("{s} is not an error status"),
                        );
                    }
                }
            }
        }
        let spec = self.spec;
        let limits = spec.limits.as_ref();
        Limits {
            rate_limit: limits
                .and_then(|l| l.rate.as_ref())
                .and_then(|r| Some((r.requests?, r.per?)))
                .map(|(requests, per)| RateLimitSpec {
                    requests,
                    per_seconds: per.seconds(),
                }),
            rate_limit_headers: limits.and_then(|l| l.headers.clone()),
            retry: spec
                .retry
                .as_ref()
                .map_or_else(defaults::retry, |r| RetrySpec {
                    max_attempts: r.max_attempts,
                    base_ms: r.backoff.base_ms,
                    cap_ms: r.backoff.cap_ms,
                    statuses: r.statuses.clone(),
                    connect_errors: r.connect_errors,
                    timeouts: r.timeouts,
                    retry_after_cap_ms: r
                        .retry_after_cap_ms
                        .unwrap_or(defaults::RETRY_AFTER_CAP_MS),
                    budget_ratio_percent: r
                        .budget_percent
                        .unwrap_or(defaults::RETRY_BUDGET_PERCENT),
                }),
            timeouts: spec
                .timeouts
                .as_ref()
                .map_or(defaults::TIMEOUTS, |t| TimeoutSpec {
                    connect_ms: t.connect_ms,
                    attempt_ms: t.attempt_ms,
                    total_ms: t.total_ms,
                }),
            idempotency: spec.idempotency.clone(),
            pagination: spec.pagination.clone(),
            errors,
        }
    }
}

/// The resolved limits section and its neighbours.
pub(super) struct Limits {
    pub(super) rate_limit: Option<RateLimitSpec>,
    pub(super) rate_limit_headers: Option<RateLimitHeaders>,
    pub(super) retry: RetrySpec<Owned>,
    pub(super) timeouts: TimeoutSpec,
    pub(super) idempotency: Option<Idempotency>,
    pub(super) pagination: Option<Pagination>,
    pub(super) errors: Option<ErrorsInfo>,
}

/// The service-wide sections as written, as JSON, for documents that reproduce them: the
/// name with the `x-` extension of the OpenAPI export, left out when the section is absent.
pub(super) fn as_written(spec: &SpecFile) -> Vec<(&'static str, serde_json::Value)> {
    fn to<T: serde::Serialize>(item: &T) -> serde_json::Value {
        serde_json::to_value(item).unwrap_or(serde_json::Value::Null)
    }
    let limits = spec.limits.as_ref();
    [
        ("service", serde_json::json!(spec.service.name)),
        ("base-url", to(&spec.service.base_url)),
        ("pricing", to(&spec.service.pricing)),
        ("style", to(&spec.service.style)),
        ("version", to(&spec.service.version)),
        ("credentials", to(&spec.credentials)),
        ("rate-limit", to(&limits.and_then(|l| l.rate.as_ref()))),
        (
            "rate-limit-headers",
            to(&limits.and_then(|l| l.headers.as_ref())),
        ),
        ("sizes", to(&limits.map(|l| &l.sizes))),
        ("retry", to(&spec.retry)),
        ("timeouts", to(&spec.timeouts)),
        ("idempotency", to(&spec.idempotency)),
        ("pagination", to(&spec.pagination)),
        ("errors", to(&spec.errors)),
        ("events", to(&spec.events)),
        ("gaps", to(&spec.gaps)),
    ]
    .into_iter()
    .filter(|(_, v)| !v.is_null())
    .collect()
}

/// Where a dot path stops matching a type: `None` when the whole path can be there; else the
/// segment that does not fit and why. `json`, maps and unions accept any further segment
/// (their shape is open or decided by data).
pub(super) fn path_misfit(types: &[TypeInfo], ty: &Ty, path: &[&str]) -> Option<String> {
    // Nothing left to follow: the whole path fits (`None`).
    let (first, rest) = path.split_first()?;
    match ty {
        Ty::Json | Ty::Page(_) => None,
        Ty::Map(inner) => path_misfit(types, inner, rest),
        Ty::List(inner) => match first.parse::<usize>() {
            Ok(_) => path_misfit(types, inner, rest),
            Err(_) => Some(format!(
                "`{first}` is not an index into a list (use a number, like `0`)"
            )),
        },
        Ty::Named(name) => match types.iter().find(|t| &t.name == name).map(|t| &t.kind) {
            Some(TypeKind::Object(fields)) => match fields.iter().find(|f| f.wire == *first) {
                Some(field) => path_misfit(types, &field.ty, rest),
                None => {
                    let known: Vec<&str> = fields.iter().map(|f| f.wire.as_str()).collect();
                    Some(format!(
                        "`{name}` has no field `{first}` (it has {})",
                        known.join(", ")
                    ))
                }
            },
            Some(TypeKind::Union { .. } | TypeKind::Untagged { .. }) | None => None,
            Some(TypeKind::Enum(_)) => Some(format!("`{name}` is an enum, with no `{first}`")),
        },
        _ => Some(format!("a scalar has no `{first}`")),
    }
}

impl Checker<'_> {
    /// The `errors` paths against the types: `code` and `message` must be in the error type,
    /// `in_success.field` in the response type of at least one operation.
    pub(super) fn error_paths(
        &mut self,
        types: &[TypeInfo],
        operations: &[OperationInfo],
        errors: Option<&ErrorsInfo>,
    ) {
        let Some(errors) = errors else { return };
        let Some(spec_errors) = &self.spec.errors else {
            return;
        };
        if let Some(ty) = &errors.ty {
            for (key, path, given) in [
                ("code", &errors.code, spec_errors.code.is_some()),
                ("message", &errors.message, spec_errors.message.is_some()),
            ] {
                let Some(path) = path else { continue };
                let segments: Vec<&str> = path.split('.').collect();
                if let Some(why) = path_misfit(types, ty, &segments) {
                    let message = format!("`{path}` is not a path in the error type: {why}");
                    let d = if given {
                        self.error_at_value(&format!("errors.{key}"), message)
                    } else {
                        self.error("errors.type", message)
                    };
                    d.hint = Some(if given {
                        format!(
                            "a dot path to the {key} (`errors.0.{key}` for the first of an array), or `none`"
                        )
                    } else {
                        format!(
                            "`{key}` defaults to `{path}`: set `errors.{key}` to where the {key} is, or to `none`"
                        )
                    });
                }
            }
        }
        if let Some(in_success) = &errors.in_success {
            let segments: Vec<&str> = in_success.field.split('.').collect();
            let responses: Vec<&Ty> = operations
                .iter()
                .filter_map(|o| o.response.as_ref())
                .filter(|t| matches!(t, Ty::Named(_)))
                .collect();
            let fits = responses
                .iter()
                .any(|ty| path_misfit(types, ty, &segments).is_none());
            if !responses.is_empty() && !fits {
                let mut names: Vec<&str> =
                    responses.iter().filter_map(|t| t.inner_name()).collect();
                names.dedup();
                let d = self.error_at_value(
                    "errors.in_success.field",
                    format!("no operation's answer has `{}`", in_success.field),
                );
                d.hint = Some(format!(
                    "a dot path into a success body; the answers are {}",
                    names.join(", ")
                ));
            }
        }
    }
}
