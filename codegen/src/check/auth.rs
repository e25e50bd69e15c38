//! Checking the auth schemes: the keys each kind needs and takes, the credentials they name,
//! the schemes an `all` scheme sends together; each becomes its resolved [`AuthScheme`].

use std::collections::HashMap;

use indexmap::IndexMap;

use super::Checker;
use crate::model::{AuthKind, SigningKind, Source};
use crate::names::is_snake;
use crate::resolved::{AuthInfo, AuthScheme, Origin, Owned, SigningScheme, defaults};

impl Checker<'_> {
    /// Auth schemes, their credentials resolved.
    pub(super) fn auth(&mut self) -> Vec<AuthInfo> {
        let mut out = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (i, scheme) in self.spec.auth.iter().enumerate() {
            let path = format!("auth.{i}");
            self.require_source(&path, scheme.source);
            if let Some(first) = seen.insert(scheme.name.clone(), i) {
                let d = self.error(
                    &format!("{path}.name"),
                    format!("duplicate auth scheme `{}`", scheme.name),
                );
                d.hint = Some(format!("`auth.{first}` already has this name"));
            }
            if scheme.name == crate::resolved::ANONYMOUS_AUTH {
                let d = self.error(
                    &format!("{path}.name"),
                    "`none` names no scheme: an operation's `auth: none` is sent without credentials",
                );
                d.hint = Some("give the scheme another name".into());
            }
            let needs: &[&str] = match scheme.kind {
                AuthKind::Bearer => &["credential"],
                AuthKind::Header => &["credential", "header"],
                // `param` + `credential`, or `params`: checked below.
                AuthKind::Query => &[],
                AuthKind::Signature => &["signing"],
                AuthKind::Basic => &["username"],
                // `field` + `credential`, or `fields`: checked below.
                AuthKind::Body => &[],
                AuthKind::Minted => &["minter"],
                AuthKind::OAuth2ClientCredentials => &["token_url", "client_id", "client_secret"],
                AuthKind::All => &["schemes"],
            };
            // Keys a kind may take beyond what it needs; any other key is a mistake.
            let optional: &[&str] = match scheme.kind {
                AuthKind::Header => &["prefix"],
                AuthKind::Signature => &["credentials"],
                AuthKind::Basic => &["password"],
                AuthKind::Minted => &["header", "prefix"],
                AuthKind::OAuth2ClientCredentials => &["scopes"],
                AuthKind::Body => &["credential", "field", "fields"],
                AuthKind::Query => &["credential", "param", "params"],
                AuthKind::Bearer | AuthKind::All => &[],
            };
            self.auth_keys_of_kind(&path, scheme, needs, optional);
            for need in needs {
                let present = match *need {
                    "credential" => scheme.credential.is_some(),
                    "header" => scheme.header.is_some(),
                    "param" => scheme.param.is_some(),
                    "username" => scheme.username.is_some(),
                    "field" => scheme.field.is_some(),
                    "minter" => scheme.minter.is_some(),
                    "token_url" => scheme.token_url.is_some(),
                    "client_id" => scheme.client_id.is_some(),
                    "client_secret" => scheme.client_secret.is_some(),
                    "schemes" => !scheme.schemes.is_empty(),
                    _ => scheme.signing.is_some(),
                };
                if !present {
                    let kind = serde_json::to_string(&scheme.kind).unwrap_or_default();
                    self.error(
                        &path,
                        format!(
                            "auth scheme `{}` of kind {kind} needs `{need}`",
                            scheme.name
                        ),
                    );
                }
            }
            if let Some(cred) = &scheme.credential {
                self.credential_ref(&format!("{path}.credential"), cred);
            }
            for (key, cred) in [
                ("username", &scheme.username),
                ("password", &scheme.password),
                ("client_id", &scheme.client_id),
                ("client_secret", &scheme.client_secret),
            ] {
                if let Some(cred) = cred {
                    self.credential_ref(&format!("{path}.{key}"), cred);
                }
            }
            if let Some(minter) = &scheme.minter
                && !is_snake(minter)
            {
                let d = self.error_at_value(
                    &format!("{path}.minter"),
                    format!("minter name `{minter}` is not snake_case"),
                );
                d.expected = Some(
                    "like `jwt`: the name the application registers its token minter under".into(),
                );
            }
            match scheme.kind {
                AuthKind::Body => self.auth_pairs(
                    &path,
                    scheme,
                    ("field", scheme.field.as_ref()),
                    ("fields", &scheme.fields),
                ),
                AuthKind::Query => self.auth_pairs(
                    &path,
                    scheme,
                    ("param", scheme.param.as_ref()),
                    ("params", &scheme.params),
                ),
                AuthKind::All => self.auth_members(&path, scheme),
                _ => {}
            }
            if let Some(url) = &scheme.token_url {
                let rest = url
                    .strip_prefix("https://")
                    .or_else(|| url.strip_prefix("http://"));
                let usable = match rest {
                    Some(rest) => {
                        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
                        !authority.is_empty()
                            && !authority.contains('@')
                            && !url.contains(char::is_whitespace)
                    }
                    None => {
                        url.starts_with('/')
                            && !url.starts_with("//")
                            && !url.contains(char::is_whitespace)
                    }
                };
                if !usable {
                    let d = self.error_at_value(
                        &format!("{path}.token_url"),
                        format!("token URL `{url}` is neither an http(s) URL nor a path"),
                    );
                    d.expected = Some(
                        "`https://auth.example.com/oauth/token`, or `/oauth/token` (resolved \
                         against the base URL); no user info"
                            .into(),
                    );
                }
            }
            for (i, scope) in scheme.scopes.iter().enumerate() {
                if scope.is_empty() || scope.contains(|c: char| c.is_whitespace() || c == '"') {
                    self.error_at_value(
                        &format!("{path}.scopes.{i}"),
                        format!("scope `{scope}` is empty or has a space or quote (RFC 6749 section 3.3)"),
                    );
                }
            }
            if scheme.kind == AuthKind::Signature {
                for role in ["app_id", "key", "secret"] {
                    match scheme.credentials.get(role) {
                        Some(cred) => {
                            let cred = cred.clone();
                            self.credential_ref(&format!("{path}.credentials.{role}"), &cred);
                        }
                        None => {
                            let d = self.error(
                                &path,
                                format!(
                                    "signing scheme `{}` needs the credential for `{role}`",
                                    scheme.name
                                ),
                            );
                            d.expected =
                                Some("credentials: { app_id: ..., key: ..., secret: ... }".into());
                        }
                    }
                }
            }
            if let Some(method) = auth_method(scheme, &self.spec.auth) {
                out.push(AuthInfo {
                    name: scheme.name.clone(),
                    method,
                    doc: scheme.doc.clone(),
                    origin: Origin {
                        source: scheme.source.unwrap_or(Source::NotShown),
                        note: scheme.note.clone(),
                        conflict: scheme.conflict.clone(),
                    },
                });
            }
        }
        out
    }

    /// The names and credentials a `body` or `query` scheme sends: `single` (`field` or
    /// `param`) with `credential`, or the map `many` (`fields` or `params`: name ->
    /// credential), not both.
    fn auth_pairs(
        &mut self,
        path: &str,
        scheme: &crate::model::AuthScheme,
        single: (&str, Option<&String>),
        many: (&str, &IndexMap<String, String>),
    ) {
        let kind = serde_json::to_string(&scheme.kind).unwrap_or_default();
        let (one, one_value) = single;
        let (map, pairs) = many;
        let what = if one == "field" {
            "body field"
        } else {
            "query parameter"
        };
        let expected = format!(
            "`{one}` and `credential`, or `{map}: {{ api_key: api_key, api_secret: api_secret }}` \
             (each {what} -> its credential)"
        );
        if !pairs.is_empty() {
            if one_value.is_some() || scheme.credential.is_some() {
                let d = self.error(
                    path,
                    format!(
                        "auth scheme `{}` of kind {kind} takes `{map}`, or `{one}` and `credential`, not both",
                        scheme.name
                    ),
                );
                d.expected = Some(expected);
            }
            for (name, cred) in pairs {
                if name.is_empty() {
                    self.error(&format!("{path}.{map}"), format!("a {what} name is empty"));
                }
                self.credential_ref(&format!("{path}.{map}.{name}"), cred);
            }
            return;
        }
        for (need, present) in [
            (one, one_value.is_some()),
            ("credential", scheme.credential.is_some()),
        ] {
            if !present {
                let d = self.error(
                    path,
                    format!(
                        "auth scheme `{}` of kind {kind} needs `{need}`",
                        scheme.name
                    ),
                );
                d.expected = Some(expected.clone());
            }
        }
        if one_value.is_some_and(|v| v.is_empty()) {
            self.error_at_value(
                &format!("{path}.{one}"),
                format!("the {what} name is empty"),
            );
        }
    }

    /// Refuses an `all` scheme's `schemes` unless they are at least two distinct other schemes
    /// of the service, each a bearer, header, query, Basic or body scheme, no two of them
    /// setting the same header, query parameter or body field.
    fn auth_members(&mut self, path: &str, scheme: &crate::model::AuthScheme) {
        let listed = &self.spec.auth;
        let mut seen: Vec<&str> = Vec::new();
        let mut taken: Vec<String> = Vec::new();
        let mut problems = Vec::new();
        for (i, member) in scheme.schemes.iter().enumerate() {
            let at = format!("{path}.schemes.{i}");
            match listed.iter().find(|s| &s.name == member) {
                _ if member == &scheme.name => {
                    problems.push((at, format!("scheme `{member}` cannot send itself")));
                }
                None => problems.push((at, format!("no auth scheme is named `{member}`"))),
                Some(_) if seen.contains(&member.as_str()) => {
                    problems.push((at, format!("`{member}` is named twice")));
                }
                Some(s) => match member_places(s) {
                    Some(places) => {
                        if let Some(place) = places.iter().find(|p| taken.contains(*p)) {
                            problems.push((
                                at,
                                format!(
                                    "`{member}` sets {place}, which another of the schemes sets"
                                ),
                            ));
                        }
                        taken.extend(places);
                        seen.push(member);
                    }
                    None => problems.push((
                        at,
                        format!(
                            "`{member}` is of kind {}: kind all sends bearer, header, query, \
                             basic and body schemes only",
                            serde_json::to_string(&s.kind)
                                .unwrap_or_default()
                                .trim_matches('"')
                        ),
                    )),
                },
            }
        }
        if scheme.schemes.len() < 2 {
            problems.push((
                format!("{path}.schemes"),
                "kind all sends two schemes or more; for one, name it instead".to_owned(),
            ));
        }
        for (at, message) in problems {
            self.error(&at, message);
        }
    }

    /// Reports keys of an auth scheme that its kind does not use (a `prefix` on a bearer
    /// scheme would otherwise be ignored without a word).
    fn auth_keys_of_kind(
        &mut self,
        path: &str,
        scheme: &crate::model::AuthScheme,
        needs: &[&str],
        optional: &[&str],
    ) {
        let present = [
            ("credential", scheme.credential.is_some()),
            ("header", scheme.header.is_some()),
            ("param", scheme.param.is_some()),
            ("signing", scheme.signing.is_some()),
            ("credentials", !scheme.credentials.is_empty()),
            ("username", scheme.username.is_some()),
            ("password", scheme.password.is_some()),
            ("prefix", scheme.prefix.is_some()),
            ("field", scheme.field.is_some()),
            ("fields", !scheme.fields.is_empty()),
            ("params", !scheme.params.is_empty()),
            ("minter", scheme.minter.is_some()),
            ("token_url", scheme.token_url.is_some()),
            ("client_id", scheme.client_id.is_some()),
            ("client_secret", scheme.client_secret.is_some()),
            ("scopes", !scheme.scopes.is_empty()),
            ("schemes", !scheme.schemes.is_empty()),
        ];
        let kind = serde_json::to_string(&scheme.kind).unwrap_or_default();
        for (key, set) in present {
            if set && !needs.contains(&key) && !optional.contains(&key) {
                let d = self.error(
                    &format!("{path}.{key}"),
                    format!(
                        "auth scheme `{}` of kind {kind} does not use `{key}`",
                        scheme.name
                    ),
                );
                let mut takes: Vec<&str> = needs.iter().chain(optional).copied().collect();
                takes.sort_unstable();
                d.expected = Some(format!("for kind {kind}: {}", takes.join(", ")));
            }
        }
    }
}

/// `(name, credential)` pairs of a `body` or `query` scheme: the one `name` with the scheme's
/// `credential`, or the map; `None` when it names neither or both (the checker reports them).
fn auth_pairs_of(
    scheme: &crate::model::AuthScheme,
    one: Option<&String>,
    many: &IndexMap<String, String>,
) -> Option<Vec<(String, String)>> {
    match (one, &scheme.credential, many.is_empty()) {
        (Some(name), Some(credential), true) => Some(vec![(name.clone(), credential.clone())]),
        (None, None, false) => Some(many.iter().map(|(n, c)| (n.clone(), c.clone())).collect()),
        _ => None,
    }
}

/// Where a scheme that kind `all` may send puts its credentials (`header Authorization`,
/// `query parameter api_key`, `body field key`); `None` for the kinds it may not send.
fn member_places(scheme: &crate::model::AuthScheme) -> Option<Vec<String>> {
    let pairs = |one: Option<&String>, many: &IndexMap<String, String>| {
        one.into_iter()
            .chain(many.keys())
            .cloned()
            .collect::<Vec<_>>()
    };
    Some(match scheme.kind {
        AuthKind::Bearer | AuthKind::Basic => vec!["header authorization".to_owned()],
        AuthKind::Header => vec![format!(
            "header {}",
            scheme
                .header
                .as_deref()
                .unwrap_or_default()
                .to_ascii_lowercase()
        )],
        AuthKind::Query => pairs(scheme.param.as_ref(), &scheme.params)
            .into_iter()
            .map(|p| format!("query parameter {p}"))
            .collect(),
        AuthKind::Body => pairs(scheme.field.as_ref(), &scheme.fields)
            .into_iter()
            .map(|f| format!("body field {f}"))
            .collect(),
        _ => return None,
    })
}

/// How a scheme sends its credentials, when it names all it needs (the checker reports the
/// rest); `listed` is the service's schemes, which an `all` scheme names.
fn auth_method(
    scheme: &crate::model::AuthScheme,
    listed: &[crate::model::AuthScheme],
) -> Option<AuthScheme<Owned>> {
    let credential = || scheme.credential.clone();
    Some(match scheme.kind {
        AuthKind::Bearer => AuthScheme::Bearer {
            credential: credential()?,
        },
        AuthKind::Header => AuthScheme::Header {
            header: scheme.header.clone()?,
            credential: credential()?,
            prefix: scheme.prefix.clone(),
        },
        AuthKind::Basic => AuthScheme::Basic {
            username: scheme.username.clone()?,
            password: scheme.password.clone(),
        },
        AuthKind::Body => AuthScheme::Body {
            fields: auth_pairs_of(scheme, scheme.field.as_ref(), &scheme.fields)?,
        },
        AuthKind::Minted => AuthScheme::Minted {
            minter: scheme.minter.clone()?,
            header: scheme
                .header
                .clone()
                .unwrap_or_else(|| defaults::MINTED_HEADER.to_owned()),
            prefix: scheme.prefix.clone(),
        },
        AuthKind::Query => AuthScheme::Query {
            params: auth_pairs_of(scheme, scheme.param.as_ref(), &scheme.params)?,
        },
        AuthKind::OAuth2ClientCredentials => AuthScheme::OAuth2ClientCredentials {
            token_url: scheme.token_url.clone()?,
            client_id: scheme.client_id.clone()?,
            client_secret: scheme.client_secret.clone()?,
            scopes: scheme.scopes.clone(),
        },
        AuthKind::All => AuthScheme::All {
            schemes: tidings_spec::AuthSchemes(
                scheme
                    .schemes
                    .iter()
                    .map(|name| {
                        let member = listed.iter().find(|s| &s.name == name)?;
                        member_places(member)?;
                        auth_method(member, listed)
                    })
                    .collect::<Option<Vec<_>>>()?,
            ),
        },
        AuthKind::Signature => {
            let role = |r: &str| scheme.credentials.get(r).cloned();
            let SigningKind::PusherHmacSha256 = scheme.signing?;
            AuthScheme::Signature {
                scheme: SigningScheme::PusherHmacSha256 {
                    app_id: role("app_id")?,
                    key: role("key")?,
                    secret: role("secret")?,
                },
            }
        }
    })
}
