//! What to check or change after a call failed: the advice a [`CallContext`](super::CallContext)
//! carries, one function per kind of failure, naming the setting or environment variable that
//! changes the outcome. Written here, beside the errors, so the attempt loop only says which
//! call failed and how.

use std::time::Duration;

use super::{Error, TimeoutKind};
use crate::spec::ServiceSpec;

/// The facts of a call the advice names.
pub(crate) struct CallFacts<'a> {
    /// The service's description.
    pub spec: &'static ServiceSpec,
    /// The operation's name.
    pub operation: &'static str,
    /// The base URL, without a trailing `/`.
    pub base: &'a str,
    /// The credentials the call sent (spec names): its operation's own scheme's, or the
    /// client's.
    pub credentials: &'a [&'static str],
}

/// The advice for `error` (after `facts`' call); empty when there is nothing to add to what
/// the error says.
pub(crate) fn for_error(error: &Error, facts: &CallFacts<'_>) -> String {
    match error {
        Error::Timeout { kind, after, .. } => timeout(*kind, *after, facts),
        Error::Auth(api) => auth(api.status, facts),
        Error::RateLimited {
            retry_after, api, ..
        } => rate_limited(api.is_some(), *retry_after),
        Error::Api(api) => status(api.status),
        Error::Transport { connect: true, .. } => format!(
            "check that the {} service is reachable at {} (set by {} or base_url())",
            facts.spec.name, facts.base, facts.spec.base_url_env
        ),
        Error::Transport { .. } => "the connection broke; the call may be sent again once the \
                                   network or the server recovers"
            .to_owned(),
        Error::LimiterUnavailable { .. } => "nothing was sent: check the shared limiter's store, \
                                            or configure it to fail open"
            .to_owned(),
        _ => String::new(),
    }
}

fn timeout(kind: TimeoutKind, after: Duration, facts: &CallFacts<'_>) -> String {
    let (name, base) = (facts.spec.name, facts.base);
    match kind {
        TimeoutKind::Connect => format!(
            "no connection within {after:?}: check that the {name} service is reachable at \
             {base} (set by {} or base_url()), or allow more with connect_timeout()",
            facts.spec.base_url_env
        ),
        TimeoutKind::Attempt => format!(
            "the {name} service at {base} did not answer within the attempt timeout: check its \
             health, or allow more with attempt_timeout() (on the builder or in CallOptions)"
        ),
        _ => "the call's deadline (retries and waits included) passed: allow more with \
              total_timeout() (on the builder or in CallOptions)"
            .to_owned(),
    }
}

fn rate_limited(answered: bool, retry_after: Option<Duration>) -> String {
    match (answered, retry_after) {
        (true, Some(wait)) => format!(
            "the server asked for a pause of {wait:?}: send less often, or give the call time \
             to wait it out with total_timeout() (on the builder or in CallOptions)"
        ),
        (true, None) => "the server gave no pause: send less often, or lower the client's own \
                         limit with rate_limit() so it paces the calls"
            .to_owned(),
        (false, _) => "nothing was sent: the client's own rate limit had no slot before the \
                       call's deadline: send less at once, allow more time with \
                       total_timeout(), or change the limit with rate_limit()"
            .to_owned(),
    }
}

/// An error status other than a refused credential or a rate limit.
fn status(status: u16) -> String {
    match status {
        400 | 422 => "the service refused the request as sent: its code and message say what \
                      to change"
            .to_owned(),
        404 => "nothing at that path: check the ids in it".to_owned(),
        409 => "the request conflicts with the resource's current state: read it again, then \
                decide"
            .to_owned(),
        413 => "the request is larger than the service accepts".to_owned(),
        500..=599 => "the service failed on its side: the retry policy (retry() on the builder, \
                      or CallOptions) decides how often a call is tried again"
            .to_owned(),
        _ => String::new(),
    }
}

/// What to check after a 401 or 403: the credentials the call sent, each with the environment
/// variable and the builder call that set it.
fn auth(status: u16, facts: &CallFacts<'_>) -> String {
    let spec = facts.spec;
    let names = facts.credentials;
    let first_secret = spec.credentials.iter().find(|c| c.secret).map(|c| c.name);
    let each: Vec<String> = names
        .iter()
        .filter_map(|name| spec.credentials.iter().find(|c| c.name == *name))
        .map(|c| {
            let call = if first_secret == Some(c.name) {
                "api_key(..)".to_owned()
            } else {
                format!("credential(\"{}\", ..)", c.name)
            };
            format!("{} (credential `{}`, or {call})", c.env, c.name)
        })
        .collect();
    let what = match each.as_slice() {
        [] => "the credentials given to the client (its signer or token minter)".to_owned(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    if status == 403 {
        format!(
            "the server knows the credentials but refuses them for {}.{}: check the permissions \
             (scopes, account, environment) of {what}",
            spec.name, facts.operation
        )
    } else {
        format!(
            "the server refused the credentials: check the value of {what}; a key of another \
             account or environment is refused too"
        )
    }
}
