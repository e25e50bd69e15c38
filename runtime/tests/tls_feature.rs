//! The `tls` feature: with it an `https` base URL builds a client; without it
//! (`cargo test -p tidings-runtime --no-default-features --test tls_feature`) the same URL is a
//! clear configuration error, and a caller's own TLS-less HTTP client fails the request as a
//! transport error without touching the network, never with a panic.

#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use tidings_runtime::*;

fn https_builder(base_url: &str) -> ClientBuilder {
    Client::builder(&EMAIL)
        .base_url(base_url)
        .api_key(API_KEY)
        .rate_limit(None)
}

#[cfg(feature = "tls")]
#[test]
fn https_base_url_builds() {
    https_builder("https://api.example.com").build().unwrap();
}

#[cfg(not(feature = "tls"))]
#[test]
fn https_base_url_is_a_config_error_naming_the_feature() {
    let err = https_builder("https://api.example.com")
        .build()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Config);
    let message = err.to_string();
    assert!(
        message.contains("an https base URL needs TLS, which is not compiled in"),
        "{message}"
    );
    assert!(message.contains("`tls` feature"), "{message}");
    // Plain HTTP is unaffected (to this machine, or to another one when allowed).
    https_builder("http://127.0.0.1:9").build().unwrap();
    https_builder("http://api.example.com")
        .allow_plain_http(true)
        .build()
        .unwrap();
}

/// The caller's own client is trusted with `https`; reqwest without TLS refuses the scheme
/// before connecting, which surfaces as a transport error.
#[cfg(not(feature = "tls"))]
#[tokio::test]
async fn own_client_without_tls_fails_https_as_transport_without_connecting() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("https://{}", listener.local_addr().unwrap());
    let client = https_builder(&base)
        .http_client(tidings_runtime::reqwest::Client::new())
        .retry(
            RetryPolicy::from_spec(&tidings_runtime::spec::RetrySpec::DEFAULT).backoff(
                std::time::Duration::from_millis(1),
                std::time::Duration::from_millis(5),
            ),
        )
        .build()
        .unwrap();
    let err = client.execute(get_email("em_1")).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Transport, "{err}");
    assert!(!err.to_string().is_empty());
    let accepted =
        tokio::time::timeout(std::time::Duration::from_millis(200), listener.accept()).await;
    assert!(accepted.is_err(), "nothing should have connected");
}
