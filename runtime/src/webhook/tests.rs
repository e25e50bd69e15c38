use super::*;
use crate::ErrorKind;
use crate::spec::{PayloadEncoding, Select, WebhookSpec};
use reqwest::header::HeaderValue;

// Test vector from the Standard Webhooks specification's reference libraries.
const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const ID: &str = "msg_p5jXN8AQM9LWM0D4loKWxJek";
const TS: i64 = 1614265330;
const BODY: &[u8] = br#"{"test": 2432232314}"#;
const SIG: &str = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

fn headers(sig: &str, ts: i64) -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert("webhook-id", HeaderValue::from_static(ID));
    h.insert(
        "webhook-timestamp",
        HeaderValue::from_str(&ts.to_string()).expect("ascii"),
    );
    h.insert(
        "webhook-signature",
        HeaderValue::from_str(sig).expect("ascii"),
    );
    h
}

fn failure(err: Error) -> WebhookFailure {
    match err {
        Error::Webhook(f) => f,
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn reference_vector_verifies() {
    let v = StandardWebhooks::new(SECRET).expect("secret");
    assert_eq!(v.sign(ID, TS, BODY), SIG);
    v.verify_at(&headers(SIG, TS), BODY, TS).expect("valid");
}

#[test]
fn any_signature_of_a_rotation_list_matches() {
    let v = StandardWebhooks::new(SECRET).expect("secret");
    let list = format!("v1,bm90IGl0 v2,whatever {SIG}");
    v.verify_at(&headers(&list, TS), BODY, TS).expect("valid");
}

#[test]
fn tampered_body_and_wrong_version_fail() {
    let v = StandardWebhooks::new(SECRET).expect("secret");
    let err = v
        .verify_at(&headers(SIG, TS), br#"{"test": 1}"#, TS)
        .expect_err("tampered");
    assert_eq!(err.kind(), ErrorKind::Webhook);
    assert_eq!(failure(err), WebhookFailure::SignatureMismatch);
    let v2 = SIG.replacen("v1,", "v2,", 1);
    assert_eq!(
        failure(v.verify_at(&headers(&v2, TS), BODY, TS).expect_err("v2")),
        WebhookFailure::SignatureMismatch
    );
}

#[test]
fn tolerance_applies_both_ways() {
    let v = StandardWebhooks::new(SECRET).expect("secret");
    v.verify_at(&headers(SIG, TS), BODY, TS + 300)
        .expect("edge");
    v.verify_at(&headers(SIG, TS), BODY, TS - 300)
        .expect("edge");
    assert_eq!(
        failure(
            v.verify_at(&headers(SIG, TS), BODY, TS + 301)
                .expect_err("late")
        ),
        WebhookFailure::TimestampOutOfTolerance
    );
    assert_eq!(
        failure(
            v.verify_at(&headers(SIG, TS), BODY, TS - 301)
                .expect_err("early")
        ),
        WebhookFailure::TimestampOutOfTolerance
    );
    let tight = v.with_tolerance(Duration::from_secs(10));
    assert!(tight.verify_at(&headers(SIG, TS), BODY, TS + 11).is_err());
}

#[test]
fn missing_headers_and_bad_secret() {
    let v = StandardWebhooks::new(SECRET).expect("secret");
    let mut h = headers(SIG, TS);
    h.remove("webhook-signature");
    assert_eq!(
        failure(v.verify_at(&h, BODY, TS).expect_err("missing")),
        WebhookFailure::MissingHeader("webhook-signature")
    );
    let mut h = headers(SIG, TS);
    h.insert("webhook-timestamp", HeaderValue::from_static("yesterday"));
    assert_eq!(
        failure(v.verify_at(&h, BODY, TS).expect_err("bad ts")),
        WebhookFailure::InvalidTimestamp
    );
    assert!(StandardWebhooks::new("whsec_***").is_err());
    assert!(!format!("{v:?}").contains("MfKQ9r8G"));
}

#[test]
fn pusher_signature_round_trip() {
    let body =
        br#"{"time_ms":1327078148132,"events":[{"name":"channel_occupied","channel":"test"}]}"#;
    let sig = sign_pusher("7ad3773142a6692b25b8", body);
    verify_pusher("7ad3773142a6692b25b8", &sig, body).expect("valid");
    verify_pusher("7ad3773142a6692b25b8", &sig.to_uppercase(), body).expect("hex case");
    assert!(verify_pusher("7ad3773142a6692b25b8", &sig, b"{}").is_err());
    assert!(verify_pusher("other", &sig, body).is_err());
    assert!(verify_pusher("7ad3773142a6692b25b8", "zz", body).is_err());
}

#[test]
fn decode_event_keeps_excerpt() {
    let err = decode_event::<serde_json::Value>(b"<html>").expect_err("not json");
    assert_eq!(err.kind(), ErrorKind::Decode);
    assert!(err.to_string().contains("<html>"));
}

static TWILIO: SignatureScheme = SignatureScheme {
    name: "twilio",
    header: "X-Twilio-Signature",
    algorithm: HmacAlgorithm::Sha1,
    over: SignedContent::UrlSortedParams,
    encoding: SignatureEncoding::Base64,
    prefix: "",
    separator: None,
    id_header: None,
    timestamp_header: None,
    tolerance_s: None,
    secret: SecretFormat::Text,
    aliases: &[],
};

fn twilio_headers(sig: &str) -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(
        "X-Twilio-Signature",
        HeaderValue::from_str(sig).expect("ascii"),
    );
    h
}

#[test]
fn url_sorted_params_signs_url_then_sorted_decoded_pairs() {
    let url = "https://example.com/sms/status?x=1";
    let body = b"To=%2B15551234567&Body=hi+there&AccountSid=AC1";
    let expected = {
        let mut mac = AnyMac::new(HmacAlgorithm::Sha1, b"token");
        mac.update(b"https://example.com/sms/status?x=1AccountSidAC1Bodyhi thereTo+15551234567");
        BASE64.encode(mac.finalize())
    };
    let v = Verifier::new(&TWILIO, "token").expect("key");
    let empty = HeaderMap::new();
    let sig = v
        .sign(&WebhookRequest::new(url, &empty, body))
        .expect("sign");
    assert_eq!(sig, expected);
    let h = twilio_headers(&sig);
    v.verify(&WebhookRequest::new(url, &h, body))
        .expect("valid");
    for (u, b) in [
        ("https://example.com/sms/status?x=2", &body[..]),
        (url, &b"To=%2B15551234568&Body=hi+there&AccountSid=AC1"[..]),
    ] {
        assert_eq!(
            failure(
                v.verify(&WebhookRequest::new(u, &h, b))
                    .expect_err("tampered")
            ),
            WebhookFailure::SignatureMismatch
        );
    }
}

#[test]
fn form_bodies_over_the_parameter_limit_are_refused() {
    let v = Verifier::new(&TWILIO, "token")
        .expect("key")
        .with_limits(WebhookLimits {
            max_body_bytes: 1 << 20,
            max_form_params: 3,
        });
    let h = twilio_headers("AAAA");
    let err = v
        .verify(&WebhookRequest::new("/x", &h, b"a=1&b=2&c=3&d=4"))
        .expect_err("too many");
    assert_eq!(failure(err), WebhookFailure::TooManyParameters { limit: 3 });
    let err = decode_payload_with::<serde_json::Value>(
        PayloadEncoding::Form,
        b"a=1&b=2&c=3&d=4",
        &WebhookLimits {
            max_body_bytes: 100,
            max_form_params: 3,
        },
    )
    .expect_err("too many");
    assert_eq!(failure(err), WebhookFailure::TooManyParameters { limit: 3 });
}

#[test]
fn bodies_over_the_size_limit_are_refused() {
    let big = vec![b'a'; DEFAULT_MAX_BODY_BYTES + 1];
    assert_eq!(
        failure(decode_event::<serde_json::Value>(&big).expect_err("big")),
        WebhookFailure::BodyTooLarge {
            limit: DEFAULT_MAX_BODY_BYTES
        }
    );
    let v = StandardWebhooks::new(SECRET).expect("secret");
    assert_eq!(
        failure(v.verify_at(&headers(SIG, TS), &big, TS).expect_err("big")),
        WebhookFailure::BodyTooLarge {
            limit: DEFAULT_MAX_BODY_BYTES
        }
    );
}

#[derive(Debug, serde::Deserialize, PartialEq)]
struct Status {
    #[serde(rename = "MessageSid")]
    sid: String,
    #[serde(rename = "NumSegments")]
    segments: Option<u32>,
}

#[test]
fn form_payloads_decode_into_typed_structs() {
    let s: Status = decode_payload(
        PayloadEncoding::Form,
        b"MessageSid=SM1&NumSegments=2&Extra=x",
    )
    .expect("decodes");
    assert_eq!(
        s,
        Status {
            sid: "SM1".into(),
            segments: Some(2)
        }
    );
    let err = decode_payload::<Status>(PayloadEncoding::Form, b"NumSegments=two").expect_err("bad");
    assert_eq!(err.kind(), ErrorKind::Decode);
}

const HOOKS: &[WebhookSpec] = &[
    WebhookSpec {
        name: "by_header",
        encoding: PayloadEncoding::Json,
        select: Some(Select::Header {
            name: "x-event",
            equals: Some("ping"),
        }),
        signature: None,
        secret_env: None,
    },
    WebhookSpec {
        name: "by_path",
        encoding: PayloadEncoding::Form,
        select: Some(Select::Path("/status")),
        signature: Some(&TWILIO),
        secret_env: Some("TOKEN"),
    },
    WebhookSpec {
        name: "by_field",
        encoding: PayloadEncoding::Json,
        select: Some(Select::Field {
            name: "data.kind",
            equals: Some("inbound"),
        }),
        signature: Some(&STANDARD_WEBHOOKS),
        secret_env: None,
    },
    WebhookSpec {
        name: "rest",
        encoding: PayloadEncoding::Json,
        select: None,
        signature: None,
        secret_env: None,
    },
];

#[test]
fn select_picks_by_header_path_field_then_fallback() {
    let l = WebhookLimits::DEFAULT;
    let mut h = HeaderMap::new();
    let pick = |h: &HeaderMap, url: &str, body: &[u8]| {
        select(HOOKS, &WebhookRequest::new(url, h, body), &l).expect("selects")
    };
    assert_eq!(pick(&h, "https://a.example/status?q=1", b"a=1"), 1);
    assert_eq!(pick(&h, "/x", br#"{"data":{"kind":"inbound"}}"#), 2);
    assert_eq!(pick(&h, "/x", br#"{"data":{"kind":"other"}}"#), 3);
    assert_eq!(pick(&h, "/x", b"not json"), 3);
    h.insert("x-event", HeaderValue::from_static("ping"));
    assert_eq!(pick(&h, "/status", b"{}"), 0);
    let err = select(&HOOKS[..3], &WebhookRequest::new("/x", &h, b"{}"), &l).map(|_| ());
    let h = HeaderMap::new();
    assert!(err.is_ok());
    assert_eq!(
        failure(select(&HOOKS[..3], &WebhookRequest::new("/x", &h, b"{}"), &l).expect_err("none")),
        WebhookFailure::UnknownPayload
    );
}

#[test]
fn field_values_that_are_not_strings_compare_as_json() {
    const BY_NUMBER: &[WebhookSpec] = &[WebhookSpec {
        name: "v2",
        encoding: PayloadEncoding::Json,
        select: Some(Select::Field {
            name: "version",
            equals: Some("2"),
        }),
        signature: None,
        secret_env: None,
    }];
    let l = WebhookLimits::DEFAULT;
    let h = HeaderMap::new();
    for (body, matches) in [
        (&br#"{"version":2}"#[..], true),
        (br#"{"version":"2"}"#, true),
        (br#"{"version":2.5}"#, false),
        (br#"{"version":true}"#, false),
    ] {
        let picked = select(BY_NUMBER, &WebhookRequest::new("/", &h, body), &l);
        assert_eq!(picked.is_ok(), matches, "{}", String::from_utf8_lossy(body));
    }
}

#[test]
fn receive_verifies_the_selected_type_with_its_secret() {
    let body = b"MessageSid=SM1";
    let url = "https://a.example/status";
    let sig = Verifier::new(&TWILIO, "token")
        .expect("key")
        .sign(&WebhookRequest::new(url, &HeaderMap::new(), body))
        .expect("sign");
    let h = twilio_headers(&sig);
    let req = WebhookRequest::new(url, &h, body);
    assert_eq!(
        failure(receive(HOOKS, &WebhookSecrets::new(), &req).expect_err("no secret")),
        WebhookFailure::MissingSecret("twilio")
    );
    assert_eq!(
        receive(HOOKS, &WebhookSecrets::all("token"), &req).expect("ok"),
        1
    );
    let secrets = WebhookSecrets::all("wrong").with("twilio", "token");
    assert_eq!(receive(HOOKS, &secrets, &req).expect("ok"), 1);
    assert!(receive(HOOKS, &WebhookSecrets::all("wrong"), &req).is_err());
    let shown = format!(
        "{secrets:?} {:?}",
        Verifier::new(&TWILIO, "token").expect("key")
    );
    assert!(
        !shown.contains("token") && shown.contains("twilio"),
        "{shown}"
    );
    // Unsigned types need no secret.
    assert_eq!(
        receive(
            HOOKS,
            &WebhookSecrets::new(),
            &WebhookRequest::new("/x", &HeaderMap::new(), b"{}")
        )
        .expect("unsigned"),
        3
    );
}

#[test]
fn hex_sha512_scheme_with_prefix_and_template() {
    static SCHEME: SignatureScheme = SignatureScheme {
        name: "custom",
        header: "x-sig",
        algorithm: HmacAlgorithm::Sha512,
        over: SignedContent::Template("{timestamp}:{url}:{body}"),
        encoding: SignatureEncoding::Hex,
        prefix: "sha512=",
        separator: Some(','),
        id_header: None,
        timestamp_header: Some("x-ts"),
        tolerance_s: Some(60),
        secret: SecretFormat::Text,
        aliases: &[],
    };
    let v = Verifier::new(&SCHEME, "s3cret").expect("key");
    let mut h = HeaderMap::new();
    h.insert("x-ts", HeaderValue::from_static("1000"));
    let sig = v
        .sign(&WebhookRequest::new("/hook", &h, b"{}"))
        .expect("sign");
    assert!(sig.starts_with("sha512=") && sig.len() == 7 + 128);
    let expected = {
        let mut mac = AnyMac::new(HmacAlgorithm::Sha512, b"s3cret");
        mac.update(b"1000:/hook:{}");
        hex::encode(mac.finalize())
    };
    assert_eq!(sig, format!("sha512={expected}"));
    h.insert(
        "x-sig",
        HeaderValue::from_str(&format!(
            "sha512=00,{}",
            sig.to_uppercase().replace("SHA512=", "sha512=")
        ))
        .expect("ascii"),
    );
    v.verify_at(&WebhookRequest::new("/hook", &h, b"{}"), 1030)
        .expect("valid");
    assert_eq!(
        failure(
            v.verify_at(&WebhookRequest::new("/hook", &h, b"{}"), 1061)
                .expect_err("late")
        ),
        WebhookFailure::TimestampOutOfTolerance
    );
    assert!(Verifier::new(&SCHEME, "").is_err());
}

#[test]
fn arbitrary_deliveries_never_panic() {
    // A small xorshift generator: deterministic, no dependency.
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    const ALPHABET: &[u8] = b"a=&%2B{}.\",:v1 x\xff\x00/?#0123456789MessageStatusdata";
    let bytes = |len: usize, next: &mut dyn FnMut() -> u64| -> Vec<u8> {
        (0..len)
            .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
            .collect()
    };
    let secrets = WebhookSecrets::all("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    for _ in 0..5_000 {
        let body_len = (next() % 200) as usize;
        let body = bytes(body_len, &mut next);
        let url_bytes = bytes((next() % 40) as usize, &mut next);
        let url = String::from_utf8_lossy(&url_bytes).into_owned();
        let mut h = HeaderMap::new();
        for name in [
            "webhook-id",
            "webhook-timestamp",
            "webhook-signature",
            "x-event",
            "X-Twilio-Signature",
        ] {
            let value_len = (next() % 30) as usize;
            let value = bytes(value_len, &mut next);
            if let Ok(v) = HeaderValue::from_bytes(&value) {
                h.insert(name, v);
            }
        }
        let request = WebhookRequest::new(&url, &h, &body);
        let _ = receive(HOOKS, &secrets, &request);
        let _ = request.path();
        let _ = decode_payload::<serde_json::Value>(PayloadEncoding::Form, &body);
        let _ = decode_payload::<Status>(PayloadEncoding::Form, &body);
        let _ = Verifier::new(&STANDARD_WEBHOOKS, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
            .map(|v| v.verify_at(&request, 1_614_265_330));
    }
}
