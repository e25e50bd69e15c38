//! Checks of what clients sign: the HTTP API's `auth_signature` (recomputed with the runtime's
//! [`PusherSigner`]) and the `auth` values of subscriptions and sign-ins (recomputed with the
//! runtime's channel-authorization functions). Comparisons are constant-time.

use tidings_runtime::realtime::{authenticate_user, authorize_channel, authorize_presence_channel};
use tidings_runtime::spec::Method;
use tidings_runtime::{PusherSigner, Secret, SignableRequest, constant_time_eq};

/// How far `auth_timestamp` may be from the server's clock.
pub(crate) const TIMESTAMP_TOLERANCE_SECS: i64 = 600;

/// Query parameters the signature scheme adds (the rest are the request's own).
const AUTH_PARAMS: [&str; 4] = [
    "auth_key",
    "auth_timestamp",
    "auth_version",
    "auth_signature",
];

/// Verifies a signed HTTP API request: `auth_key` is the app's, `auth_version` is 1.0,
/// `auth_timestamp` is within ±600 s of `now`, `body_md5` matches the body when there is one,
/// and `auth_signature` is hex HMAC-SHA256(secret, `METHOD\nPATH\nsorted query`).
///
/// `path` is the path as sent (still percent-encoded); `query` the raw query string.
/// The error is a message for the 401 answer; it never contains the secret.
pub(crate) fn verify_request(
    key: &str,
    secret: &Secret,
    method: &str,
    path: &str,
    query: Option<&str>,
    body: &[u8],
    now: i64,
) -> Result<(), String> {
    let pairs: Vec<(String, String)> = url::form_urlencoded::parse(query.unwrap_or("").as_bytes())
        .into_owned()
        .collect();
    let get = |name: &str| {
        pairs
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let (Some(auth_key), Some(timestamp), Some(version), Some(signature)) = (
        get("auth_key"),
        get("auth_timestamp"),
        get("auth_version"),
        get("auth_signature"),
    ) else {
        return Err(
            "unsigned request: auth_key, auth_timestamp, auth_version and auth_signature are required"
                .into(),
        );
    };
    if !constant_time_eq(auth_key.as_bytes(), key.as_bytes()) {
        return Err(format!("unknown auth_key `{auth_key}`"));
    }
    if version != "1.0" {
        return Err(format!(
            "unsupported auth_version `{version}`; expected 1.0"
        ));
    }
    let Ok(timestamp) = timestamp.parse::<i64>() else {
        return Err(format!("auth_timestamp `{timestamp}` is not Unix seconds"));
    };
    if (now - timestamp).abs() > TIMESTAMP_TOLERANCE_SECS {
        return Err(format!(
            "auth_timestamp {timestamp} is more than {TIMESTAMP_TOLERANCE_SECS} s from the server's time {now}"
        ));
    }
    // The signer adds body_md5 itself when there is a body; without one, a body_md5 the
    // client sent is one of its own parameters.
    let others: Vec<(String, String)> = pairs
        .iter()
        .filter(|(k, _)| {
            let k = k.to_ascii_lowercase();
            !AUTH_PARAMS.contains(&k.as_str()) && (k != "body_md5" || body.is_empty())
        })
        .cloned()
        .collect();
    let Some(method) = Method::from_name(method) else {
        return Err(format!("unsupported method `{method}`"));
    };
    let signer = PusherSigner::new(key, secret.clone());
    let expected = signer.sign_at(
        &SignableRequest::new(&method, path, &others, Some(body)),
        timestamp,
    );
    let find = |name: &str| {
        expected
            .query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    if !body.is_empty() {
        match (get("body_md5"), find("body_md5")) {
            (None, _) => return Err("body_md5 is required with a body".into()),
            (Some(given), Some(actual)) if !given.eq_ignore_ascii_case(actual) => {
                return Err(format!(
                    "body_md5 `{given}` does not match the body (its MD5 is {actual})"
                ));
            }
            _ => {}
        }
    } else if let Some(given) = get("body_md5") {
        // MD5 of nothing.
        if !given.eq_ignore_ascii_case("d41d8cd98f00b204e9800998ecf8427e") {
            return Err(format!("body_md5 `{given}` does not match the empty body"));
        }
    }
    let expected_signature = find("auth_signature").unwrap_or_default();
    if !constant_time_eq(
        signature.to_ascii_lowercase().as_bytes(),
        expected_signature.as_bytes(),
    ) {
        return Err(
            "invalid auth_signature: expected hex HMAC-SHA256 of METHOD\\nPATH\\nQUERY (keys lowercased and sorted, auth_signature left out) with the app secret"
                .into(),
        );
    }
    Ok(())
}

/// What a subscription claims, checked against the signature it should carry.
pub(crate) fn check_channel_auth(
    key: &str,
    secret: &Secret,
    socket_id: &str,
    channel: &str,
    channel_data: Option<&str>,
    given: &str,
) -> Result<(), String> {
    let (expected, signed) = match channel_data {
        Some(data) => (
            authorize_presence_channel(key, secret, socket_id, channel, data).auth,
            format!("{socket_id}:{channel}:{data}"),
        ),
        None => (
            authorize_channel(key, secret, socket_id, channel).auth,
            format!("{socket_id}:{channel}"),
        ),
    };
    check_auth_value(key, &expected, given, &signed)
}

/// A sign-in's `auth`, checked against `socket_id::user::user_data`.
pub(crate) fn check_user_auth(
    key: &str,
    secret: &Secret,
    socket_id: &str,
    user_data: &str,
    given: &str,
) -> Result<(), String> {
    let expected = authenticate_user(key, secret, socket_id, user_data).auth;
    check_auth_value(
        key,
        &expected,
        given,
        &format!("{socket_id}::user::{user_data}"),
    )
}

fn check_auth_value(key: &str, expected: &str, given: &str, signed: &str) -> Result<(), String> {
    let Some((given_key, _)) = given.split_once(':') else {
        return Err(format!(
            "auth `{given}` is not of the form `<key>:<signature>`"
        ));
    };
    if given_key != key {
        return Err(format!("auth names the key `{given_key}`, not this app's"));
    }
    let given = given.to_ascii_lowercase();
    if constant_time_eq(given.as_bytes(), expected.to_ascii_lowercase().as_bytes()) {
        Ok(())
    } else {
        Err(format!(
            "invalid signature: expected hex HMAC-SHA256 of `{signed}` with the app secret"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "278d425bdf160c739803";
    const SECRET: &str = "7ad3773142a6692b25b8";
    const BODY: &[u8] = br#"{"name":"foo","channels":["project-3"],"data":"{\"some\":\"data\"}"}"#;
    const QUERY: &str = "auth_key=278d425bdf160c739803&auth_timestamp=1353088179&auth_version=1.0&body_md5=ec365a775a4cd0599faeb73354201b6f&auth_signature=da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c";

    #[test]
    fn accepts_the_documented_vector_and_rejects_changes() {
        let secret = Secret::new(SECRET);
        let ok = |query: &str, body: &[u8], now| {
            verify_request(
                KEY,
                &secret,
                "POST",
                "/apps/3/events",
                Some(query),
                body,
                now,
            )
        };
        ok(QUERY, BODY, 1353088179).unwrap();
        ok(QUERY, BODY, 1353088179 + 600).unwrap();
        assert!(
            ok(QUERY, BODY, 1353088179 + 601)
                .unwrap_err()
                .contains("600")
        );
        assert!(
            ok(QUERY, b"{}", 1353088179)
                .unwrap_err()
                .contains("body_md5")
        );
        assert!(
            ok(&QUERY.replace("da45", "da46"), BODY, 1353088179)
                .unwrap_err()
                .contains("auth_signature")
        );
        assert!(
            ok(
                &QUERY.replace("auth_key=278d", "auth_key=178d"),
                BODY,
                1353088179
            )
            .is_err()
        );
        assert!(
            ok("auth_key=x", BODY, 1353088179)
                .unwrap_err()
                .contains("unsigned")
        );
        let wrong = Secret::new("other");
        assert!(
            verify_request(
                KEY,
                &wrong,
                "POST",
                "/apps/3/events",
                Some(QUERY),
                BODY,
                1353088179
            )
            .is_err()
        );
        assert!(
            verify_request(
                KEY,
                &secret,
                "GET",
                "/apps/3/events",
                Some(QUERY),
                BODY,
                1353088179
            )
            .is_err()
        );
    }

    #[test]
    fn channel_auth_vector() {
        let secret = Secret::new(SECRET);
        let good =
            "278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4";
        check_channel_auth(KEY, &secret, "1234.1234", "private-foobar", None, good).unwrap();
        let err = check_channel_auth(KEY, &secret, "1234.1235", "private-foobar", None, good)
            .unwrap_err();
        assert!(err.contains("1234.1235:private-foobar"), "{err}");
        assert!(!err.contains(SECRET));
        assert!(
            check_channel_auth(KEY, &secret, "1234.1234", "private-foobar", None, "x").is_err()
        );
        assert!(constant_time_eq(b"abc", b"abc") && !constant_time_eq(b"abc", b"abd"));
    }
}
