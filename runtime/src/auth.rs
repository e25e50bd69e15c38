//! Auth schemes: choosing one (the spec's default, a caller's choice, or the query fallback
//! only on opt-in) and turning it into what each attempt sends.

use std::fmt;
use std::sync::Arc;

use reqwest::header::{AUTHORIZATION, HeaderName, HeaderValue};

use crate::Error;
use crate::secret::Secret;
use crate::sign::{PusherSigner, Signer};
use crate::spec::{AuthScheme, CredentialSpec, ServiceSpec, SigningScheme};

/// What the builder was told about auth.
#[derive(Clone, Default)]
pub(crate) enum AuthChoice {
    /// The spec's first non-query scheme.
    #[default]
    Default,
    /// A specific scheme.
    Scheme(AuthScheme),
    /// The spec's query-parameter scheme (explicit opt-in).
    Query,
    /// A custom signer.
    Signer(Arc<dyn Signer>),
    /// No auth.
    None,
}

impl fmt::Debug for AuthChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthChoice::Default => f.write_str("Default"),
            AuthChoice::Scheme(s) => write!(f, "Scheme({s:?})"),
            AuthChoice::Query => f.write_str("Query"),
            AuthChoice::Signer(s) => write!(f, "Signer({s:?})"),
            AuthChoice::None => f.write_str("None"),
        }
    }
}

/// Auth ready to apply: header values are built (and marked sensitive) once.
#[derive(Clone)]
pub(crate) enum ResolvedAuth {
    None,
    Header {
        name: HeaderName,
        value: HeaderValue,
    },
    Query {
        param: &'static str,
        value: Secret,
    },
    Signer(Arc<dyn Signer>),
}

impl fmt::Debug for ResolvedAuth {
    // Names the scheme only: header values and query values are credentials.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolvedAuth::None => f.write_str("None"),
            ResolvedAuth::Header { name, .. } => write!(f, "Header({name})"),
            ResolvedAuth::Query { param, .. } => write!(f, "Query({param})"),
            ResolvedAuth::Signer(s) => write!(f, "Signer({s:?})"),
        }
    }
}

impl ResolvedAuth {
    /// Resolves the builder's choice against the spec and the credentials that were set.
    pub(crate) fn resolve(
        choice: AuthChoice,
        spec: &'static ServiceSpec,
        credentials: &[(&'static CredentialSpec, Secret)],
    ) -> Result<ResolvedAuth, Error> {
        let scheme = match choice {
            AuthChoice::None => return Ok(ResolvedAuth::None),
            AuthChoice::Signer(signer) => return Ok(ResolvedAuth::Signer(signer)),
            choice => match chosen_scheme(&choice, spec)? {
                Some(scheme) => scheme,
                None => return Ok(ResolvedAuth::None),
            },
        };
        let lookup = |name: &'static str| -> Result<Secret, Error> {
            if let Some((_, value)) = credentials.iter().find(|(c, _)| c.name == name) {
                return Ok(value.clone());
            }
            let env = spec
                .credentials
                .iter()
                .find(|c| c.name == name)
                .map(|c| c.env);
            Err(Error::config(match env {
                Some(env) => format!(
                    "missing credential `{name}` for the {} service: set {env} or call credential(\"{name}\", ..)",
                    spec.name
                ),
                None => format!(
                    "the auth scheme needs credential `{name}`, which the {} spec does not declare",
                    spec.name
                ),
            }))
        };
        Ok(match scheme {
            AuthScheme::Bearer { credential } => {
                let value = lookup(credential)?;
                ResolvedAuth::Header {
                    name: AUTHORIZATION,
                    value: sensitive_header(&format!("Bearer {}", value.expose()), credential)?,
                }
            }
            AuthScheme::Header { header, credential } => {
                let name = HeaderName::from_bytes(header.as_bytes()).map_err(|_| {
                    Error::config(format!(
                        "auth header name `{header}` is not a valid header name"
                    ))
                })?;
                let value = lookup(credential)?;
                ResolvedAuth::Header {
                    name,
                    value: sensitive_header(value.expose(), credential)?,
                }
            }
            AuthScheme::Query { param, credential } => ResolvedAuth::Query {
                param,
                value: lookup(credential)?,
            },
            AuthScheme::Signature {
                scheme:
                    SigningScheme::PusherHmacSha256 {
                        app_id,
                        key,
                        secret,
                    },
            } => {
                // app_id is checked here so a missing one fails at build, not at the first call.
                lookup(app_id)?;
                let key = lookup(key)?;
                let secret = lookup(secret)?;
                ResolvedAuth::Signer(Arc::new(PusherSigner::new(key.expose(), secret)))
            }
        })
    }

    /// The scheme's name, for logs.
    pub(crate) fn scheme_name(&self) -> &'static str {
        match self {
            ResolvedAuth::None => "none",
            ResolvedAuth::Header { .. } => "header",
            ResolvedAuth::Query { .. } => "query",
            ResolvedAuth::Signer(_) => "signature",
        }
    }
}

/// The spec scheme a choice stands for: `None` when it needs no spec scheme (no auth, a custom
/// signer, a spec without auth).
fn chosen_scheme(
    choice: &AuthChoice,
    spec: &'static ServiceSpec,
) -> Result<Option<AuthScheme>, Error> {
    Ok(Some(match choice {
        AuthChoice::None | AuthChoice::Signer(_) => return Ok(None),
        AuthChoice::Scheme(scheme) => *scheme,
        AuthChoice::Query => *spec
            .auth
            .iter()
            .find(|s| matches!(s, AuthScheme::Query { .. }))
            .ok_or_else(|| {
                Error::config(format!(
                    "the {} service has no query-parameter auth scheme",
                    spec.name
                ))
            })?,
        AuthChoice::Default => {
            if spec.auth.is_empty() {
                return Ok(None);
            }
            *spec.auth.iter().find(|s| !matches!(s, AuthScheme::Query { .. })).ok_or_else(|| {
                Error::config(format!(
                    "the {} service only offers query-parameter auth, which puts the key in URLs: \
                     opt in with ClientBuilder::query_auth()",
                    spec.name
                ))
            })?
        }
    }))
}

/// The credentials (by spec name) the auth a builder chose needs; empty when the choice
/// itself is invalid (building reports that).
pub(crate) fn required_credentials(
    choice: &AuthChoice,
    spec: &'static ServiceSpec,
) -> Vec<&'static str> {
    match chosen_scheme(choice, spec) {
        Ok(Some(
            AuthScheme::Bearer { credential }
            | AuthScheme::Header { credential, .. }
            | AuthScheme::Query { credential, .. },
        )) => vec![credential],
        Ok(Some(AuthScheme::Signature {
            scheme:
                SigningScheme::PusherHmacSha256 {
                    app_id,
                    key,
                    secret,
                },
        })) => vec![app_id, key, secret],
        Ok(None) | Err(_) => Vec::new(),
    }
}

fn sensitive_header(value: &str, credential: &str) -> Result<HeaderValue, Error> {
    let mut value = HeaderValue::from_str(value).map_err(|_| {
        Error::config(format!(
            "credential `{credential}` contains characters not allowed in a header"
        ))
    })?;
    value.set_sensitive(true);
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::*;

    static CREDS: &[CredentialSpec] = &[CredentialSpec {
        name: "api_key",
        env: "KEY_ENV",
        secret: true,
    }];

    static QUERY_ONLY: ServiceSpec = ServiceSpec {
        name: "q",
        title: "Q",
        base_url: None,
        base_url_env: "Q_URL",
        credentials: CREDS,
        auth: &[AuthScheme::Query {
            param: "api_key",
            credential: "api_key",
        }],
        rate_limit: None,
        rate_limit_headers: RateLimitHeaders::NONE,
        retry: RetrySpec::DEFAULT,
        timeouts: TimeoutSpec::DEFAULT,
        idempotency: None,
    };

    #[test]
    fn query_auth_needs_opt_in() {
        let creds = [(&CREDS[0], Secret::new("k"))];
        let err =
            ResolvedAuth::resolve(AuthChoice::Default, &QUERY_ONLY, &creds).expect_err("no opt-in");
        assert!(err.to_string().contains("query_auth"));
        let auth = ResolvedAuth::resolve(AuthChoice::Query, &QUERY_ONLY, &creds).expect("opted in");
        assert_eq!(auth.scheme_name(), "query");
        assert!(!format!("{auth:?}").contains('k') || !format!("{auth:?}").contains("\"k\""));
    }

    #[test]
    fn bearer_value_is_sensitive_and_not_in_debug() {
        let creds = [(&CREDS[0], Secret::new("sk_very_secret"))];
        let auth = ResolvedAuth::resolve(
            AuthChoice::Scheme(AuthScheme::Bearer {
                credential: "api_key",
            }),
            &QUERY_ONLY,
            &creds,
        )
        .expect("resolves");
        match &auth {
            ResolvedAuth::Header { value, .. } => assert!(value.is_sensitive()),
            other => panic!("unexpected {other:?}"),
        }
        assert!(!format!("{auth:?}").contains("sk_very_secret"));
    }
}
