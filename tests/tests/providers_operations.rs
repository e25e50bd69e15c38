//! Import fidelity (issue 30, items 2 and 4): `codegen/tests/import/operations_3_0.yaml` has
//! operations whose error answers differ by operation and status (a v2 `{"error": {code,
//! message}}`, a v3 `{"errors": [{field, message}]}`, an RFC 9457 problem), an error detail in
//! a documented response header (`X-Error-Code`), and two lists paged by `offset` and `limit`:
//! one with its total in `_metadata.count`, one a bare array with no total. Its import is
//! checked in as `examples/providers/fidelity/operations_imported.yaml` and compiled into
//! `tidings_providers::operations_imported`; these tests call the compiled client against a
//! scripted server on loopback: every error decodes with the code and message where its own
//! operation and status say, and every stream reads every item and stops at the last page.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use futures_util::StreamExt;
use serde_json::json;
use tidings_codegen::import::{ImportOptions, import_openapi};
use tidings_providers::operations_imported as ops;
use tidings_runtime::RetryPolicy;
use tidings_tests::{Reply, TestServer};

const DOCUMENT: &str = "codegen/tests/import/operations_3_0.yaml";
const IMPORTED: &str = "examples/providers/fidelity/operations_imported.yaml";

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn client(base: &str) -> ops::OperationsImportedClient {
    ops::OperationsImportedClient::builder()
        .base_url(base)
        .retry(RetryPolicy::none())
        .build()
        .unwrap()
}

fn mail() -> ops::Mail {
    ops::Mail::new("from@example.com", "hello")
}

/// The API error of a failed call.
fn api(err: &tidings_runtime::Error) -> &tidings_runtime::ApiError {
    err.api_error()
        .unwrap_or_else(|| panic!("not an API error: {err}"))
}

#[tokio::test]
async fn each_operation_decodes_its_own_error_body_by_status() {
    let server = TestServer::start(|r| match (r.method.as_str(), r.path.as_str()) {
        ("POST", "/v2/mail") if r.json()["subject"] == "down" => Reply::json(
            503,
            json!({"error": {"code": "down", "message": "try again later"}}),
        ),
        ("POST", "/v2/mail") if r.json()["subject"] == "old" => Reply::json(
            400,
            json!({"errors": [{"field": "from", "message": "answered in the service's shape"}]}),
        ),
        ("POST", "/v2/mail") => Reply::json(
            400,
            json!({"error": {"code": "bad_from", "message": "from is not verified"}}),
        ),
        ("POST", "/v3/mail") => Reply::json(
            400,
            json!({"errors": [{"field": "from", "message": "from is not verified v3"}]}),
        ),
        ("POST", "/v3/templates") => Reply::json(
            422,
            json!({
                "type": "https://api.example.com/problems/duplicate-name",
                "title": "Duplicate name",
                "status": 422,
                "detail": "a template named welcome exists",
            }),
        )
        .header("content-type", "application/problem+json"),
        _ => Reply::json(500, json!({})),
    })
    .await;
    let client = client(&server.url());

    // v2, 400: `error.code` and `error.message`, not the service's `errors.0.message`.
    let err = client.send_mail_v2(&mail()).await.unwrap_err();
    let e = api(&err);
    assert_eq!(e.status, 400);
    assert_eq!(e.code.as_deref(), Some("bad_from"), "{e:?}");
    assert_eq!(e.message.as_deref(), Some("from is not verified"), "{e:?}");

    // v2, 5XX: the class key covers 503.
    let down = ops::Mail::new("from@example.com", "down");
    let err = client.send_mail_v2(&down).await.unwrap_err();
    let e = api(&err);
    assert_eq!(e.status, 503);
    assert_eq!(e.code.as_deref(), Some("down"), "{e:?}");
    assert_eq!(e.message.as_deref(), Some("try again later"), "{e:?}");

    // v2, 400, answered in the service's shape instead (Infobip's voice API documents both
    // for one status): the operation's paths find nothing, the service's do.
    let old = ops::Mail::new("from@example.com", "old");
    let err = client.send_mail_v2(&old).await.unwrap_err();
    let e = api(&err);
    assert_eq!(e.code, None, "{e:?}");
    assert_eq!(
        e.message.as_deref(),
        Some("answered in the service's shape"),
        "{e:?}"
    );

    // v3: the service's error body (`errors.0.message`, no code).
    let err = client.send_mail_v3(&mail()).await.unwrap_err();
    let e = api(&err);
    assert_eq!(e.code, None, "{e:?}");
    assert_eq!(
        e.message.as_deref(),
        Some("from is not verified v3"),
        "{e:?}"
    );

    // RFC 9457: the code is the problem's `type`, the message its `detail`.
    let template = ops::Template::new("welcome");
    let err = client.create_template(&template).await.unwrap_err();
    let e = api(&err);
    assert_eq!(e.status, 422);
    assert_eq!(
        e.code.as_deref(),
        Some("https://api.example.com/problems/duplicate-name"),
        "{e:?}"
    );
    assert_eq!(
        e.message.as_deref(),
        Some("a template named welcome exists"),
        "{e:?}"
    );
    assert_eq!(server.requests().len(), 5);
}

#[tokio::test]
async fn an_error_detail_documented_in_a_header_is_kept_on_the_error() {
    let server = TestServer::start(|_| {
        Reply::json(
            404,
            json!({"errors": [{"field": "id", "message": "no such mail"}]}),
        )
        .header("X-Error-Code", "mail_not_found")
        .header("X-Undocumented", "not kept")
    })
    .await;
    let err = client(&server.url()).get_mail("m1").await.unwrap_err();
    let e = api(&err);
    assert_eq!(e.message.as_deref(), Some("no such mail"), "{e:?}");
    // Found by any case; a header the document does not name is not kept.
    assert_eq!(e.header("x-error-code"), Some("mail_not_found"), "{e:?}");
    assert_eq!(e.header("X-Undocumented"), None);
    assert!(
        e.headers.iter().all(|(n, _)| n == "X-Error-Code"),
        "{:?}",
        e.headers
    );
}

#[tokio::test]
async fn an_error_header_value_is_kept_bounded_and_escaped() {
    let long = "c".repeat(10_000);
    // A right-to-left override (sent as UTF-8, which HTTP carries as opaque bytes) and a
    // value far over the limit.
    let value = format!("bad\u{202e}{long}");
    let server = TestServer::start(move |_| {
        Reply::json(404, json!({"errors": [{"message": "no such mail"}]}))
            .header("X-Error-Code", &value)
    })
    .await;
    let err = client(&server.url()).get_mail("m1").await.unwrap_err();
    let kept = api(&err).header("x-error-code").unwrap().to_owned();
    assert!(kept.starts_with("bad\\u{202e}ccc"), "{kept}");
    assert!(
        kept.len() <= tidings_runtime::ApiError::ID_LIMIT + 8,
        "{}",
        kept.len()
    );
}

/// A server paging `count` items by `offset` and `limit` (default 2), in `TemplatePage` form
/// with the total in `_metadata.count` (`total`), or as a bare array (`bare`).
fn offset_pages(count: usize, bare: bool) -> impl Fn(&tidings_tests::Recorded) -> Reply {
    move |r| {
        let q = r.query_pairs();
        let offset: usize = q.get("offset").map_or(0, |o| o.parse().unwrap());
        let limit: usize = q.get("limit").map_or(2, |l| l.parse().unwrap());
        let items: Vec<serde_json::Value> = (offset..count.min(offset + limit))
            .map(|i| {
                if bare {
                    json!({"email": format!("u{i}@example.com")})
                } else {
                    json!({"id": format!("t{i}"), "name": format!("template {i}")})
                }
            })
            .collect();
        if bare {
            Reply::json(200, json!(items))
        } else {
            Reply::json(
                200,
                json!({"result": items, "_metadata": {"self": "x", "count": count}}),
            )
        }
    }
}

#[tokio::test]
async fn an_offset_list_with_a_total_reads_every_item_and_stops_at_the_total() {
    // 5 templates, 2 a page: offsets 0, 2, 4; the third page reaches the total, so no fourth
    // request is made.
    let server = TestServer::start(offset_pages(5, false)).await;
    let query = ops::ListTemplatesQuery::default().limit(2);
    let names: Vec<String> = client(&server.url())
        .list_templates_stream(&query)
        .map(|t| t.unwrap().name)
        .collect()
        .await;
    assert_eq!(
        names,
        (0..5).map(|i| format!("template {i}")).collect::<Vec<_>>()
    );
    let offsets: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r.query_pairs().get("offset").cloned().unwrap_or_default())
        .collect();
    assert_eq!(offsets, ["", "2", "4"]);

    // A total that is a multiple of the page size: the last full page ends it.
    let server = TestServer::start(offset_pages(4, false)).await;
    let read = client(&server.url())
        .list_templates_stream(&query)
        .count()
        .await;
    assert_eq!(read, 4);
    assert_eq!(server.requests().len(), 2, "no request past the total");
}

#[tokio::test]
async fn a_bare_array_paged_by_offset_stops_at_a_short_or_empty_page() {
    // 5 items, 2 a page: the third page has 1 item, shorter than asked, and is the last.
    let server = TestServer::start(offset_pages(5, true)).await;
    let query = ops::ListSuppressionsQuery::default().limit(2);
    let emails: Vec<String> = client(&server.url())
        .list_suppressions_stream(&query)
        .map(|s| s.unwrap().email)
        .collect()
        .await;
    assert_eq!(emails.len(), 5, "{emails:?}");
    assert_eq!(emails[4], "u4@example.com");
    assert_eq!(server.requests().len(), 3);

    // 4 items, 2 a page: the third page is empty and ends the stream.
    let server = TestServer::start(offset_pages(4, true)).await;
    let read = client(&server.url())
        .list_suppressions_stream(&query)
        .count()
        .await;
    assert_eq!(read, 4);
    assert_eq!(server.requests().len(), 3);
    let last = &server.requests()[2];
    assert_eq!(
        last.query_pairs().get("offset").map(String::as_str),
        Some("4")
    );
}

#[test]
fn operations_spec_is_what_importing_the_document_gives() {
    let doc = std::fs::read_to_string(root().join(DOCUMENT)).unwrap();
    let options = ImportOptions::new("operations_imported", "operations_3_0.yaml");
    let imported = import_openapi(&doc, &options, None).unwrap();
    let checked_in = std::fs::read_to_string(root().join(IMPORTED)).unwrap();
    assert!(
        imported.yaml == checked_in,
        "{IMPORTED} is stale: run\n  cargo run -p tidings-codegen -- import openapi {DOCUMENT} \
         --service operations_imported > {IMPORTED}"
    );
    // The report lists both lists as paged, every documented error as decoded.
    let report =
        tidings_codegen::import::fidelity_report(&doc, &imported, "operations_3_0.yaml").unwrap();
    assert_eq!(report.lists_paged, 2, "{report:?}");
    assert!(report.lists_unpaged.is_empty(), "{report:?}");
    assert_eq!(report.errors_documented, 6, "{report:?}");
    assert_eq!(report.errors_decoded, 6, "{report:?}");
}
