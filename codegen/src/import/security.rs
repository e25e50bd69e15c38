//! Security schemes: the document's schemes as the spec's auth section, with the credentials
//! they need.

use std::collections::HashMap;

use super::requirements::{required_together, requirements, used_apart};

use super::key_text::{
    bearer_by_name, fixed_basic_user, header_examples, listed_values, names_an_account,
    prefix_in_text, prefix_of_value,
};

#[allow(clippy::wildcard_imports)] // the converter's shared imports and helpers
use super::*;

impl Converter<'_> {
    /// Credentials and auth schemes from the security schemes; the default one first.
    pub(super) fn security(&mut self, service: &str) -> (Node, Node) {
        let doc = self.doc;
        let mut credentials = Node::map();
        let mut auth: Vec<(String, Node)> = Vec::new();
        let Some(schemes) = doc
            .get("components")
            .and_then(|c| c.get("securitySchemes"))
            .and_then(Value::as_object)
            .filter(|s| !s.is_empty())
        else {
            let mut auth = Vec::new();
            if let Some((header, ptr, everywhere)) = self.header_credential() {
                let (credential, node) = self.header_key(service, &header, &ptr, everywhere);
                credentials.set(&credential.0, credential.1);
                auth.push(node);
            } else if let Some((creds, schemes)) = self.field_credentials(service) {
                for (name, node) in creds {
                    credentials.set(&name, node);
                }
                auth = schemes;
            }
            return (credentials, Node::Seq(auth));
        };
        let default: Vec<String> = doc
            .get("security")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
            .flat_map(|r| r.keys().cloned())
            .collect();
        let mut order: Vec<&String> = schemes.keys().collect();
        order.sort_by_key(|k| default.iter().position(|d| d == *k).unwrap_or(usize::MAX));
        // Our own exports carry the credentials as written.
        if let Some(Value::Object(creds)) = doc.get("x-credentials") {
            for (name, c) in creds {
                let mut node = Node::map();
                if let Some(env) = c.get("env").and_then(Value::as_str) {
                    node.set("env", Node::str(env));
                }
                if c.get("secret").and_then(Value::as_bool) == Some(false) {
                    node.set("secret", Node::Bool(false));
                }
                if let Some(d) = c.get("doc").and_then(Value::as_str) {
                    node.set("doc", Node::str(d));
                }
                self.provenance(
                    &mut node,
                    &format!("/x-credentials/{}", document::escape(name)),
                );
                credentials.set(name, node);
            }
        }
        // The header and prefix of the first key scheme sending each credential.
        let mut senders: HashMap<String, (String, Option<String>)> = HashMap::new();
        // The schemes sending each credential so far.
        let mut sent_by: HashMap<String, Vec<String>> = HashMap::new();
        // Scheme names taken: two schemes whose names differ only in case or separators
        // (Telnyx's `BearerAuth` and `bearerAuth`) are `bearer_auth` and `bearer_auth_2`.
        let mut taken: HashSet<String> = HashSet::new();
        for raw in order {
            let s = &schemes[raw];
            let ptr = format!("/components/securitySchemes/{}", document::escape(raw));
            let written = operations::op_name(raw);
            let name = (1..)
                .map(|n| match n {
                    1 => written.clone(),
                    n => format!("{written}_{n}"),
                })
                .find(|n| !taken.contains(n))
                .unwrap_or_default();
            taken.insert(name.clone());
            let kind = s.get("type").and_then(Value::as_str).unwrap_or_default();
            let http_scheme = s
                .get("scheme")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_ascii_lowercase();
            // Assume left out until mapped.
            self.unmapped_schemes.insert(raw.clone());
            let mut node = Node::map();
            node.set("name", Node::str(&name));
            let mut credential = s
                .get("x-credential")
                .and_then(Value::as_str)
                .map(str::to_owned);
            match (kind, http_scheme.as_str()) {
                ("apiKey", _) if s.get("x-signing").is_some() => {
                    let scheme = s
                        .get("x-signing")
                        .and_then(|x| x.get("scheme"))
                        .and_then(Value::as_str);
                    if scheme != Some("pusher_hmac_sha256") {
                        self.skip(&ptr, "needs spec construct: request signing scheme", scheme);
                        continue;
                    }
                    node.set("kind", Node::str("signature"));
                    node.set("signing", Node::str("pusher_hmac_sha256"));
                    let mut roles = Node::map();
                    for (role, cred) in s
                        .get("x-credentials")
                        .and_then(Value::as_object)
                        .into_iter()
                        .flatten()
                    {
                        if let Some(c) = cred.as_str() {
                            roles.set(role, Node::str(c));
                        }
                    }
                    node.set("credentials", roles);
                    credential = None;
                }
                ("http", "bearer") => {
                    node.set("kind", Node::str("bearer"));
                    self.auth_headers.insert("authorization".into());
                    // A JWT the application signs (Vonage's Voice) is not made by the client.
                    let format = s.get("bearerFormat").and_then(Value::as_str);
                    if let Some(format) = format.filter(|f| f.eq_ignore_ascii_case("jwt")) {
                        self.approximate(
                            &ptr,
                            &format!("bearer token of format `{format}`: the client sends the token it is given (made and signed by the application), and the sandbox takes the token it prints"),
                        );
                    }
                }
                ("http", "basic") => {
                    // Our exports name both credentials; otherwise they are named from the
                    // scheme: `accountSid_authToken` -> account_sid, auth_token.
                    let named = |role: &str| {
                        s.get("x-credentials")
                            .and_then(|c| c.get(role))
                            .and_then(Value::as_str)
                            .map(str::to_owned)
                    };
                    // A user name the description fixes (`api:YOUR_API_KEY`): the client sends
                    // it by itself, and the key is the password.
                    let fixed = s
                        .get("description")
                        .and_then(Value::as_str)
                        .and_then(fixed_basic_user);
                    let mut fixed_user = None;
                    let (user, pass) = match (named("username"), named("password")) {
                        (Some(u), p) => (u, p),
                        _ => {
                            let (u, p) = basic_credential_names(raw, &name);
                            match fixed {
                                Some((user_value, key)) => {
                                    let p = key
                                        .filter(|k| credentials.get(k).is_none() && *k != u)
                                        .unwrap_or(p);
                                    self.approximate(
                                        &ptr,
                                        &format!("HTTP Basic: the user name is always `{user_value}` (the scheme's description says so), credential `{u}` with that value; the key is the password, `{p}`"),
                                    );
                                    fixed_user = Some(user_value);
                                    (u, Some(p))
                                }
                                None => {
                                    self.approximate(
                                        &ptr,
                                        &format!("HTTP Basic: credentials named from the scheme (`{u}` as user name, `{p}` as password)"),
                                    );
                                    (u, Some(p))
                                }
                            }
                        }
                    };
                    node.set("kind", Node::str("basic"));
                    node.set("username", Node::str(&user));
                    if let Some(p) = &pass {
                        node.set("password", Node::str(p));
                    }
                    for c in std::iter::once(&user).chain(pass.as_ref()) {
                        if credentials.get(c).is_none() {
                            let mut cred = Node::map();
                            cred.set(
                                "env",
                                Node::str(format!("COMMS_{}_{}", shouty(service), shouty(c))),
                            );
                            cred.set(
                                "doc",
                                Node::str(format!(
                                    "A credential of the `{raw}` HTTP Basic scheme."
                                )),
                            );
                            // A user name fixed, or naming who signs in (Twilio's account
                            // SID, in its every path), is no secret.
                            let fixed = fixed_user.as_ref().filter(|_| c == &user);
                            if fixed.is_some()
                                || (c == &user && pass.is_some() && names_an_account(c))
                            {
                                cred.set("secret", Node::Bool(false));
                            }
                            if let Some(v) = fixed {
                                cred.set("value", Node::str(v));
                            }
                            self.provenance(&mut cred, &ptr);
                            credentials.set(c, cred);
                        }
                    }
                    self.auth_headers.insert("authorization".into());
                    credential = None;
                }
                ("apiKey", _) => match s.get("in").and_then(Value::as_str) {
                    Some("header") => {
                        let header = s
                            .get("name")
                            .and_then(Value::as_str)
                            .unwrap_or("Authorization");
                        node.set("kind", Node::str("header"));
                        node.set("header", Node::str(header));
                        self.auth_headers.insert(header.to_ascii_lowercase());
                        let written = s.get("x-prefix").and_then(Value::as_str);
                        let described = || {
                            s.get("description")
                                .and_then(Value::as_str)
                                .and_then(|d| prefix_in_text(d, header))
                                .map(|p| (p, "the scheme's description"))
                        };
                        let exemplified = || {
                            header_examples(doc, header)
                                .iter()
                                .find_map(|e| prefix_of_value(e))
                                .map(|p| (p, "an example of the header in the document"))
                        };
                        let named =
                            || bearer_by_name(raw, header).map(|p| (p, "the scheme's name"));
                        let found = match written {
                            Some(p) => Some((p.to_owned(), "")),
                            None => described().or_else(exemplified).or_else(named),
                        };
                        if let Some((p, from)) = found {
                            node.set("prefix", Node::str(&p));
                            if written.is_none() {
                                self.approximate(
                                    &ptr,
                                    &format!("the key's prefix `{p}` read from {from}"),
                                );
                            }
                        } else if header.eq_ignore_ascii_case("authorization") {
                            self.approximate(&ptr, "an API key sent whole in `Authorization`: if the provider wants `Bearer <key>`, make this scheme `kind: bearer`");
                        }
                    }
                    Some("query") => {
                        node.set("kind", Node::str("query"));
                        node.set(
                            "param",
                            Node::str(s.get("name").and_then(Value::as_str).unwrap_or("api_key")),
                        );
                    }
                    other => {
                        self.skip(&ptr, "needs spec construct: API key in a cookie", other);
                        continue;
                    }
                },
                ("oauth2", _)
                    if s.pointer("/flows/clientCredentials/tokenUrl")
                        .and_then(Value::as_str)
                        .is_some() =>
                {
                    let flow = &s["flows"]["clientCredentials"];
                    let token_url = flow["tokenUrl"].as_str().unwrap_or_default();
                    node.set("kind", Node::str("oauth2_client_credentials"));
                    node.set("token_url", Node::str(token_url));
                    let named = |role: &str, default: &str| {
                        s.get("x-credentials")
                            .and_then(|c| c.get(role))
                            .and_then(Value::as_str)
                            .unwrap_or(default)
                            .to_owned()
                    };
                    let (id, secret) = (
                        named("client_id", "client_id"),
                        named("client_secret", "client_secret"),
                    );
                    node.set("client_id", Node::str(&id));
                    node.set("client_secret", Node::str(&secret));
                    // The scopes the document's requirements ask of this scheme, else none:
                    // a provider grants a client what it registered.
                    let scopes = required_scopes(doc, raw);
                    if !scopes.is_empty() {
                        node.set("scopes", Node::Seq(scopes.iter().map(Node::str).collect()));
                    }
                    for (c, is_secret) in [(&id, false), (&secret, true)] {
                        if credentials.get(c).is_none() {
                            let mut cred = Node::map();
                            cred.set(
                                "env",
                                Node::str(format!("COMMS_{}_{}", shouty(service), shouty(c))),
                            );
                            if !is_secret {
                                cred.set("secret", Node::Bool(false));
                            }
                            cred.set(
                                "doc",
                                Node::str(format!(
                                    "The OAuth2 client {} of the `{raw}` scheme.",
                                    if is_secret { "secret" } else { "id" }
                                )),
                            );
                            self.provenance(&mut cred, &ptr);
                            credentials.set(c, cred);
                        }
                    }
                    self.auth_headers.insert("authorization".into());
                    credential = None;
                }
                ("oauth2" | "openIdConnect", _) => {
                    node.set("kind", Node::str("bearer"));
                    credential = credential.or(Some("access_token".into()));
                    self.approximate(&ptr, "OAuth 2 / OpenID Connect: the client sends an access token as Bearer; getting one is not in the spec language");
                }
                _ => {
                    self.skip(
                        &ptr,
                        "needs spec construct: security scheme",
                        Some(&format!("{kind} {http_scheme}")),
                    );
                    continue;
                }
            }
            if !matches!(
                node.get("kind").and_then(Node::as_str),
                Some("signature" | "basic" | "oauth2_client_credentials")
            ) {
                let explicit = credential.is_some();
                let mut c = credential.unwrap_or_else(|| "api_key".into());
                let sends = node.get("header").and_then(Node::as_str).map(|h| {
                    let prefix = node.get("prefix").and_then(Node::as_str);
                    (h.to_ascii_lowercase(), prefix.map(str::to_owned))
                });
                // A second scheme in the same header with another prefix (Infobip's
                // `App <key>` and `IBSSO <session token>`) sends another secret: its own
                // credential, named after the scheme.
                if let (false, Some((header, prefix))) = (explicit, &sends)
                    && senders
                        .get(&c)
                        .is_some_and(|(h, p)| h == header && p != prefix)
                {
                    c = name.clone();
                }
                // A scheme required together with one already sending this credential sends
                // another secret (Vonage's `api_secret` beside `api_key`): its own credential,
                // named after the scheme.
                let together: Vec<String> = sent_by
                    .get(&c)
                    .into_iter()
                    .flatten()
                    .filter(|o| required_together(doc, o, raw))
                    .cloned()
                    .collect();
                if !explicit && !together.is_empty() {
                    if name == c {
                        // This scheme is named after the credential (Stream's `api_key` query
                        // key beside its `JWT` header): it keeps it, and the earlier ones take
                        // their own names.
                        for other in together {
                            let own = operations::op_name(&other);
                            if let Some((_, node)) = auth.iter_mut().find(|(r, _)| *r == other) {
                                node.set("credential", Node::str(&own));
                            }
                            if credentials.get(&own).is_none() {
                                let doc =
                                    format!("The credential of the `{other}` security scheme.");
                                let ptr = format!(
                                    "/components/securitySchemes/{}",
                                    document::escape(&other)
                                );
                                credentials
                                    .set(&own, self.credential_node(service, &own, &doc, &ptr));
                            }
                            if let Some(list) = sent_by.get_mut(&c) {
                                list.retain(|o| *o != other);
                            }
                            sent_by.entry(own).or_default().push(other);
                        }
                        let doc = format!("The credential of the `{raw}` security scheme.");
                        credentials.set(&c, self.credential_node(service, &c, &doc, &ptr));
                    } else {
                        c = name.clone();
                    }
                }
                // A scheme never offered where one already sending this credential is (OneSignal's
                // `rest_api_key` for notifications, `organization_api_key` for apps) is another
                // key: its own credential, named after the scheme.
                // One scheme written twice, under names that differ only in case (Telnyx's
                // `BearerAuth` and `bearerAuth`), is still the one key.
                let twin = |o: &String| {
                    let key =
                        |v: &Value| ["type", "in", "name", "scheme"].map(|k| v.get(k).cloned());
                    operations::op_name(o) == written && key(&schemes[o]) == key(s)
                };
                if !explicit
                    && sent_by.get(&c).is_some_and(|others| {
                        others.iter().all(|o| used_apart(doc, o, raw) && !twin(o))
                    })
                {
                    c = name.clone();
                }
                if let Some(sent) = sends {
                    senders.entry(c.clone()).or_insert(sent);
                }
                sent_by.entry(c.clone()).or_default().push(raw.clone());
                if credentials.get(&c).is_none() {
                    let doc = format!("The credential of the `{raw}` security scheme.");
                    let mut cred = self.credential_node(service, &c, &doc, &ptr);
                    // A header whose description lists the values it takes (Stream's
                    // `Stream-Auth-Type`: `jwt` or `anonymous`) is a setting, not a secret:
                    // the first value by default, made up by nobody.
                    let values = s
                        .get("description")
                        .and_then(Value::as_str)
                        .and_then(listed_values)
                        .filter(|_| node.get("kind").and_then(Node::as_str) == Some("header"));
                    if let Some(values) = values {
                        cred.set("secret", Node::Bool(false));
                        cred.set("value", Node::str(&values[0]));
                        let listed = values
                            .iter()
                            .map(|v| format!("`{v}`"))
                            .collect::<Vec<_>>()
                            .join(", ");
                        cred.set(
                            "doc",
                            Node::str(format!(
                                "{doc} One of {listed}; `{}` unless set.",
                                values[0]
                            )),
                        );
                        self.approximate(
                            &ptr,
                            &format!(
                                "the description lists the values this key takes ({listed}): credential `{c}` is a setting, not a secret, `{}` unless set",
                                values[0]
                            ),
                        );
                    }
                    credentials.set(&c, cred);
                }
                node.set("credential", Node::str(c));
            }
            if let Some(d) = schema::description(s) {
                node.set("doc", Node::str(d));
            }
            self.provenance(&mut node, &ptr);
            self.unmapped_schemes.remove(raw);
            self.auth_names.push((raw.clone(), name));
            auth.push((raw.clone(), node));
        }
        let auth = self.query_keys_together(auth);
        let auth = self.schemes_together(auth);
        (credentials, Node::Seq(auth))
    }

    /// Query-key schemes required together (Vonage's `api_key` and `api_secret` parameters,
    /// one requirement object naming both) become one `query` scheme sending every key
    /// (`params`), named after the first (or, in our own exports, `x-auth-name`); operations
    /// naming any of them name it. Alternatives stay separate schemes.
    fn query_keys_together(&mut self, auth: Vec<(String, Node)>) -> Vec<Node> {
        let doc = self.doc;
        let is_query = |n: &Node| n.get("kind").and_then(Node::as_str) == Some("query");
        // Each kept scheme, with the raw schemes merged into it.
        let mut kept: Vec<(Node, Vec<String>)> = Vec::new();
        for (raw, node) in auth {
            let group = is_query(&node)
                .then(|| {
                    kept.iter().position(|(k, members)| {
                        is_query(k) && members.iter().all(|m| required_together(doc, m, &raw))
                    })
                })
                .flatten();
            let Some(g) = group else {
                kept.push((node, vec![raw]));
                continue;
            };
            let (into, members) = &mut kept[g];
            let param = node.get("param").and_then(Node::as_str).unwrap_or_default();
            let credential = node
                .get("credential")
                .and_then(Node::as_str)
                .unwrap_or_default();
            if let Node::Map(m) = into {
                if m.get("params").is_none() {
                    // The first key moves from `param` + `credential` into `params`.
                    let first_param = m.shift_remove("param");
                    let first_credential = m.shift_remove("credential");
                    let mut params = Node::map();
                    if let (Some(p), Some(c)) = (first_param, first_credential) {
                        params.set(p.as_str().unwrap_or_default(), c);
                    }
                    m.insert("params".into(), params);
                    let named = doc
                        .pointer(&format!(
                            "/components/securitySchemes/{}/x-auth-name",
                            document::escape(&members[0])
                        ))
                        .and_then(Value::as_str);
                    if let Some(name) = named {
                        m.insert("name".into(), Node::str(name));
                    }
                }
                if let Some(params) = m.get_mut("params") {
                    params.set(param, Node::str(credential));
                }
            }
            members.push(raw);
        }
        // Operations that name a merged scheme name the one it joined.
        let mut out = Vec::new();
        for (node, members) in kept {
            let name = node.get("name").and_then(Node::as_str).unwrap_or_default();
            for (raw, spec_name) in &mut self.auth_names {
                if members.contains(raw) {
                    name.clone_into(spec_name);
                }
            }
            out.push(node);
        }
        out
    }
}

impl Converter<'_> {
    /// A document without security schemes whose every operation requires the same header,
    /// named as a credential is (`X-Postmark-Server-Token`, `X-Api-Key`): that header and the
    /// pointer of its first parameter. The client sends it from a credential, as a scheme
    /// would say; as a parameter of every call it would be a secret passed by hand each time.
    ///
    /// Else the one such header nearly every operation takes, required or not (Sendbird's
    /// `api-token` on 88 of 92 operations, required on 2): reported, as an approximation.
    /// The last of the three says whether every operation requires it.
    fn header_credential(&mut self) -> Option<(String, String, bool)> {
        let (common, offered, operations, per_op) = self.credential_headers()?;
        let credential_like = |name: &str| {
            let lower = name.to_ascii_lowercase();
            ["token", "key", "secret", "auth"]
                .iter()
                .any(|w| lower.contains(w))
                && !lower.contains("idempotency")
        };
        if let Some((name, at)) = common.into_iter().find(|(name, _)| credential_like(name)) {
            return Some((name, at, true));
        }
        // Four in five operations or more take it (of two or more); those that do not are
        // public (Rocket.Chat's `users.register` beside 53 of 59 taking `X-Auth-Token`).
        let (name, at, count) = offered
            .into_iter()
            .filter(|(name, _, count)| {
                credential_like(name) && operations >= 2 && count * 5 >= operations * 4
            })
            .max_by_key(|(_, _, count)| *count)?;
        let lower = name.to_ascii_lowercase();
        self.public_without_key = per_op
            .into_iter()
            .filter(|(_, taken)| !taken.contains(&lower))
            .map(|(ptr, _)| ptr)
            .collect();
        let public = match operations - count {
            0 => String::new(),
            1 => "; the one that does not take it is public (`auth: none`)".to_owned(),
            n => format!("; the {n} that do not take it are public (`auth: none`)"),
        };
        self.approximate(
            &at,
            &format!(
                "the document has no security scheme; the header `{name}`, taken by {count} of \
                 {operations} operations (required or not), is taken as the service's key and \
                 sent with every call{public}"
            ),
        );
        Some((name, at, false))
    }

    /// Of the header parameters: those every operation requires (name, pointer), each one
    /// taken by some operation with how many take it, and the count of operations.
    #[allow(clippy::type_complexity)]
    fn credential_headers(
        &self,
    ) -> Option<(
        Vec<(String, String)>,
        Vec<(String, String, usize)>,
        usize,
        Vec<(String, Vec<String>)>,
    )> {
        let paths = self.doc.get("paths").and_then(Value::as_object)?;
        let mut common: Option<Vec<(String, String)>> = None;
        let mut offered: Vec<(String, String, usize)> = Vec::new();
        let mut operations = 0;
        // Each operation's pointer and the header names it takes (lower case).
        let mut per_op = Vec::new();
        for (path, item_value) in paths {
            let Some(item) = item_value.as_object() else {
                continue;
            };
            let item_ptr = format!("/paths/{}", document::escape(path));
            for (method, op) in item {
                if !operations::METHODS.contains(&method.as_str()) {
                    continue;
                }
                let op_ptr = format!("{item_ptr}/{method}");
                operations += 1;
                let mut required = Vec::new();
                let mut taken: Vec<String> = Vec::new();
                for (owner, ptr) in [(op, op_ptr.as_str()), (item_value, item_ptr.as_str())] {
                    let Some(Value::Array(params)) = owner.get("parameters") else {
                        continue;
                    };
                    for (i, p) in params.iter().enumerate() {
                        let (p, at) = match p.get("$ref").and_then(Value::as_str) {
                            Some(r) => match document::resolve(self.doc, r) {
                                Some(t) => (t, r.trim_start_matches('#').to_owned()),
                                None => continue,
                            },
                            None => (p, format!("{ptr}/parameters/{i}")),
                        };
                        let (Some("header"), Some(name)) = (
                            p.get("in").and_then(Value::as_str),
                            p.get("name").and_then(Value::as_str),
                        ) else {
                            continue;
                        };
                        let lower = name.to_ascii_lowercase();
                        if !taken.contains(&lower) {
                            taken.push(lower.clone());
                            match offered
                                .iter_mut()
                                .find(|(n, ..)| n.to_ascii_lowercase() == lower)
                            {
                                Some((.., count)) => *count += 1,
                                None => offered.push((name.to_owned(), at.clone(), 1)),
                            }
                        }
                        if p.get("required").and_then(Value::as_bool) == Some(true) {
                            required.push((lower, name.to_owned(), at));
                        }
                    }
                }
                per_op.push((op_ptr.clone(), taken.clone()));
                common = Some(match common {
                    None => required.into_iter().map(|(_, n, at)| (n, at)).collect(),
                    Some(so_far) => so_far
                        .into_iter()
                        .filter(|(n, _)| {
                            required
                                .iter()
                                .any(|(l, _, _)| *l == n.to_ascii_lowercase())
                        })
                        .collect(),
                });
            }
        }
        Some((common.unwrap_or_default(), offered, operations, per_op))
    }

    /// A credential of the spec: read from `COMMS_<SERVICE>_<NAME>`, with its doc and where
    /// the document says it.
    pub(super) fn credential_node(
        &mut self,
        service: &str,
        name: &str,
        doc: &str,
        ptr: &str,
    ) -> Node {
        let mut cred = Node::map();
        cred.set(
            "env",
            Node::str(format!("COMMS_{}_{}", shouty(service), shouty(name))),
        );
        cred.set("doc", Node::str(doc));
        self.provenance(&mut cred, ptr);
        cred
    }

    /// The credential (name and node) and the `header` auth scheme that sends it in `header`.
    fn header_key(
        &mut self,
        service: &str,
        header: &str,
        ptr: &str,
        everywhere: bool,
    ) -> ((String, Node), Node) {
        let lower = header.to_ascii_lowercase();
        // `X-Postmark-Server-Token` of the `postmark` service: `server_token`.
        let named = operations::op_name(lower.strip_prefix("x-").unwrap_or(&lower));
        let credential = named
            .strip_prefix(&format!("{}_", operations::op_name(service)))
            .filter(|rest| !rest.is_empty())
            .map_or_else(|| named.clone(), str::to_owned);
        let which = if everywhere {
            "which every operation of the document requires"
        } else {
            "which nearly every operation of the document takes"
        };
        let cred = self.credential_node(
            service,
            &credential,
            &format!("Sent in the `{header}` header, {which}."),
            ptr,
        );
        let mut node = Node::map();
        node.set("name", Node::str(&credential));
        node.set("kind", Node::str("header"));
        node.set("header", Node::str(header));
        node.set("credential", Node::str(&credential));
        self.provenance(&mut node, ptr);
        self.auth_headers.insert(lower);
        let pointer = self.pointer(ptr);
        self.report.inferred.push(Finding {
            pointer,
            reason: format!(
                "an API key in the `{header}` header (credential `{credential}`): {which}, and \
                 the document declares no security scheme"
            ),
            detail: None,
        });
        ((credential, cred), node)
    }
}

/// User name and password credential names for an HTTP Basic scheme: the two halves of a
/// `user_password` scheme name, else `<scheme>_username` and `<scheme>_password`.
pub(super) fn basic_credential_names(raw: &str, name: &str) -> (String, String) {
    if let Some((u, p)) = raw.split_once('_')
        && !p.contains('_')
    {
        let (u, p) = (operations::op_name(u), operations::op_name(p));
        if !u.is_empty() && !p.is_empty() && u != p {
            return (u, p);
        }
    }
    (format!("{name}_username"), format!("{name}_password"))
}

/// Scopes the document's security requirements (top level and per operation) name for the
/// scheme `raw`, in first-seen order.
fn required_scopes(doc: &Value, raw: &str) -> Vec<String> {
    let requirements = requirements(doc);
    let mut out: Vec<String> = Vec::new();
    for scope in requirements
        .iter()
        .filter_map(|r| r.get(raw))
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(Value::as_str)
    {
        if !out.iter().any(|s| s == scope) {
            out.push(scope.to_owned());
        }
    }
    out
}

impl Converter<'_> {
    /// The operation's own scheme name: `none` for a public one, `None` for the default.
    pub(super) fn operation_auth(&mut self, op: &Value, ptr: &str) -> Option<String> {
        if let Some(scheme) = self.field_auth_scheme(ptr) {
            return Some(scheme);
        }
        // No key header where the service's key is a header most operations take.
        if self.public_without_key.contains(ptr) {
            return Some(crate::resolved::ANONYMOUS_AUTH.to_owned());
        }
        let Some(requirements) = op.get("security").and_then(Value::as_array) else {
            // No requirement here and none for the document: OpenAPI reads the operation as
            // public, but a document that secures every other operation by its own list has
            // more likely left this one out (OneSignal's `DELETE .../users/by/...`). The
            // default scheme is kept, and said.
            if self.doc.get("security").is_none() && !self.auth_names.is_empty() {
                self.approximate(
                    ptr,
                    "no security requirement here or for the document (OpenAPI reads it as \
                     public): served and sent with the default scheme; write `auth: none` if it \
                     is public",
                );
            }
            return None;
        };
        // `security: []` (or only the empty requirement `{}`): a public operation, sent
        // without credentials, when the service has any to leave out.
        let public = requirements
            .iter()
            .all(|r| r.as_object().is_some_and(serde_json::Map::is_empty));
        if public {
            return (!self.auth_names.is_empty())
                .then(|| crate::resolved::ANONYMOUS_AUTH.to_owned());
        }
        // The empty requirement among others (Telnyx's `POST /oauth/token`: `[{oauth: []},
        // {}]`): credentials are optional. The operation is public, sent without them.
        let optional = requirements
            .iter()
            .any(|r| r.as_object().is_some_and(serde_json::Map::is_empty));
        if optional && !self.auth_names.is_empty() {
            self.approximate(
                ptr,
                "its credentials are optional (`{}` among its security requirements): sent without them",
            );
            return Some(crate::resolved::ANONYMOUS_AUTH.to_owned());
        }
        // Alternatives (OR) of which one is the default scheme: the default serves the
        // operation (Infobip lists four schemes on each, the service's first among them).
        let default = self.default_scheme();
        let asked: Vec<String> = requirements
            .iter()
            .filter_map(|r| self.requirement_scheme(r))
            .collect();
        if let Some(first) = asked.first() {
            // The default alone where the service has other schemes is named, so the others
            // are refused (OneSignal's `app_key` operations refuse its `user_key`).
            let others = self.auth_names.iter().any(|(_, n)| !asked.contains(n));
            if default.as_ref().is_some_and(|d| asked.contains(d)) && !(asked.len() == 1 && others)
            {
                return None;
            }
            return Some(first.clone());
        }
        let all_reported = requirements
            .iter()
            .filter_map(Value::as_object)
            .flat_map(|r| r.keys())
            .all(|k| self.unmapped_schemes.contains(k));
        if !all_reported {
            self.approximate(
                ptr,
                "its security schemes are not mappable; the default scheme is used",
            );
        }
        None
    }
}

/// Whether parameter `p` (named `lower`, in lower case) is the token an operation's security
/// scheme already sends: named `token` or `access_token`, described as the authentication or
/// access token, on an operation the document secures (its own `security` or the document's,
/// not emptied).
pub(super) fn carries_the_credential(doc: &Value, op: &Value, p: &Value, lower: &str) -> bool {
    if !matches!(lower, "token" | "access_token") {
        return false;
    }
    let described = p
        .get("description")
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase)
        .is_some_and(|d| d.contains("authentication token") || d.contains("access token"));
    let secured = op
        .get("security")
        .or_else(|| doc.get("security"))
        .and_then(Value::as_array)
        .is_some_and(|schemes| !schemes.is_empty());
    described && secured
}
