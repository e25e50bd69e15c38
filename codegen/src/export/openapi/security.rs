//! Security schemes: the spec's auth methods as OpenAPI security schemes, and the body-borne
//! credentials OpenAPI cannot say (`x-body-auth`).

#[allow(clippy::wildcard_imports)] // the document's shared helpers and imports
use super::*;
use crate::resolved::AuthInfo;

/// The names of the OpenAPI security schemes an auth scheme becomes: its own name, or for a
/// `query` scheme of several parameters, one per parameter (`<name>_<param>`), required
/// together; for an `all` scheme, those of the schemes it sends (but a body one's, which is
/// `x-body-auth`).
pub(super) fn scheme_names(service: &Service, a: &AuthInfo) -> Vec<String> {
    match &a.method {
        AuthScheme::All { schemes } => schemes
            .iter()
            .filter(|m| !matches!(m, AuthScheme::Body { .. }))
            .filter_map(|m| service.auth.iter().find(|x| x.method == *m))
            .flat_map(|x| scheme_names(service, x))
            .collect(),
        AuthScheme::Query { params } if params.len() > 1 => params
            .iter()
            .map(|(param, _)| {
                let param = param.replace(|c: char| !c.is_ascii_alphanumeric(), "_");
                format!("{}_{param}", a.name)
            })
            .collect(),
        _ => vec![a.name.clone()],
    }
}

/// The security requirement object of an auth scheme: each of its OpenAPI schemes, together.
pub(super) fn requirement(service: &Service, a: &AuthInfo) -> Value {
    Value::Object(
        scheme_names(service, a)
            .into_iter()
            .map(|n| (n, json!([])))
            .collect(),
    )
}

pub(super) fn security_schemes(service: &Service) -> Map<String, Value> {
    let mut out = Map::new();
    for a in &service.auth {
        let mut s = Map::new();
        match &a.method {
            AuthScheme::Bearer { credential } => {
                s.insert("type".into(), json!("http"));
                s.insert("scheme".into(), json!("bearer"));
                s.insert("x-credential".into(), json!(credential));
            }
            AuthScheme::Header {
                header,
                credential,
                prefix,
            } => {
                s.insert("type".into(), json!("apiKey"));
                s.insert("in".into(), json!("header"));
                s.insert("name".into(), json!(header));
                s.insert("x-credential".into(), json!(credential));
                if let Some(prefix) = prefix {
                    s.insert("x-prefix".into(), json!(prefix));
                }
            }
            AuthScheme::Basic { username, password } => {
                s.insert("type".into(), json!("http"));
                s.insert("scheme".into(), json!("basic"));
                s.insert(
                    "x-credentials".into(),
                    json!({ "username": username, "password": password }),
                );
            }
            // OpenAPI has no security scheme for a key in the body: the document's
            // `x-body-auth` says it instead (see `body_auth`).
            // Body credentials are `x-body-auth`; a service never holds `Anonymous`.
            // An `all` scheme is its schemes' requirement (`requirement`), not one of its own.
            AuthScheme::Body { .. } | AuthScheme::Anonymous | AuthScheme::All { .. } => continue,
            AuthScheme::Minted {
                minter,
                header,
                prefix,
            } => {
                let bearer = header.eq_ignore_ascii_case("authorization")
                    && prefix.as_deref() == Some("Bearer ");
                if bearer {
                    s.insert("type".into(), json!("http"));
                    s.insert("scheme".into(), json!("bearer"));
                } else {
                    s.insert("type".into(), json!("apiKey"));
                    s.insert("in".into(), json!("header"));
                    s.insert("name".into(), json!(header));
                }
                s.insert("x-minter".into(), json!(minter));
                if let Some(prefix) = prefix {
                    s.insert("x-prefix".into(), json!(prefix));
                }
            }
            AuthScheme::OAuth2ClientCredentials {
                token_url,
                client_id,
                client_secret,
                scopes,
            } => {
                let scopes: Map<String, Value> =
                    scopes.iter().map(|s| (s.clone(), json!(""))).collect();
                s.insert("type".into(), json!("oauth2"));
                s.insert(
                    "flows".into(),
                    json!({ "clientCredentials": { "tokenUrl": token_url, "scopes": scopes } }),
                );
                s.insert(
                    "x-credentials".into(),
                    json!({ "client_id": client_id, "client_secret": client_secret }),
                );
            }
            AuthScheme::Query { params } => {
                // One apiKey scheme per parameter; several are required together
                // (`requirement`) and name the scheme they come from (`x-auth-name`).
                let names = scheme_names(service, a);
                for ((param, credential), name) in params.iter().zip(&names) {
                    let mut s = Map::new();
                    s.insert("type".into(), json!("apiKey"));
                    s.insert("in".into(), json!("query"));
                    s.insert("name".into(), json!(param));
                    s.insert("x-opt-in".into(), json!(true));
                    s.insert("x-credential".into(), json!(credential));
                    if names.len() > 1 {
                        s.insert("x-auth-name".into(), json!(a.name));
                    }
                    describe(&mut s, a.doc.as_deref());
                    origin(&mut s, &a.origin);
                    out.insert(name.clone(), Value::Object(s));
                }
                continue;
            }
            AuthScheme::Signature {
                scheme:
                    SigningScheme::PusherHmacSha256 {
                        app_id,
                        key,
                        secret,
                    },
            } => {
                // Signing cannot be said in OpenAPI: the signature travels as a query
                // parameter, described here and in `x-signing`.
                s.insert("type".into(), json!("apiKey"));
                s.insert("in".into(), json!("query"));
                s.insert("name".into(), json!("auth_signature"));
                s.insert("x-signing".into(), json!({
                    "scheme": "pusher_hmac_sha256",
                    "query": ["auth_key", "auth_timestamp", "auth_version", "body_md5", "auth_signature"],
                    "auth_version": "1.0",
                    "string_to_sign": "METHOD\\nPATH\\nQUERY (the other parameters sorted by name, lower-case keys, `body_md5` = hex MD5 of a JSON body)",
                    "signature": "hex HMAC-SHA256 of the string to sign, keyed with the secret",
                }));
                s.insert(
                    "x-credentials".into(),
                    json!({ "app_id": app_id, "key": key, "secret": secret }),
                );
            }
        }
        describe(&mut s, a.doc.as_deref());
        origin(&mut s, &a.origin);
        out.insert(a.name.clone(), Value::Object(s));
    }
    out
}

/// The auth schemes that put credentials in the request body, which OpenAPI's security
/// schemes cannot say: `{name, field, credential}` for one field, `{name, fields: [{field,
/// credential}, ..]}` for several sent together.
pub(super) fn body_auth(service: &Service) -> Vec<Value> {
    service
        .auth
        .iter()
        .filter_map(|a| match &a.method {
            AuthScheme::Body { fields } => Some(match fields.as_slice() {
                [(field, credential)] => json!({
                    "name": a.name, "field": field, "credential": credential,
                }),
                _ => json!({
                    "name": a.name,
                    "fields": fields
                        .iter()
                        .map(|(field, credential)| json!({ "field": field, "credential": credential }))
                        .collect::<Vec<_>>(),
                }),
            }),
            _ => None,
        })
        .collect()
}
