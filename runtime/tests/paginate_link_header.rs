//! A list that answers a bare JSON array and names the next page in the `Link` header (RFC
//! 8288), as GitHub-style APIs do: the page spec's items path is empty (the body is the items),
//! and the walk follows `rel="next"` over a loopback server until a page has none (with
//! `rel="next"` before `rel="last"`, as GitHub writes it: the comma between links once hid it).

mod common;

use common::*;
use futures_util::StreamExt;
use tidings_runtime::spec::*;
use tidings_runtime::*;

static BARE: PaginationSpec = PaginationSpec {
    items: "",
    style: PageStyle::LinkHeader,
};

#[tokio::test]
async fn a_bare_array_walks_its_link_header_pages_to_the_end() {
    let server = TestServer::start(|_, r: &Recorded| match r.query("page").as_deref() {
        None => Reply::json(200, r#"[{"id":"a"},{"id":"b"}]"#).header(
            "Link",
            r#"</v1/emails?page=2>; rel="next", </v1/emails?page=3>; rel="last""#,
        ),
        Some("2") => {
            Reply::json(200, r#"[{"id":"c"}]"#).header("Link", r#"</v1/emails?page=3>; rel="next""#)
        }
        _ => Reply::json(200, r#"[{"id":"d"}]"#),
    })
    .await;
    let client = email_client(&server).build().expect("client");
    #[derive(serde::Deserialize)]
    struct Item {
        id: String,
    }
    let items: Vec<Result<Item, Error>> =
        paginate(client, tidings_runtime::Request::new(&LIST_EMAILS), &BARE)
            .collect()
            .await;
    let ids: Vec<String> = items.into_iter().map(|i| i.expect("item").id).collect();
    assert_eq!(ids, ["a", "b", "c", "d"]);
    let pages: Vec<Option<String>> = server.requests().iter().map(|r| r.query("page")).collect();
    assert_eq!(pages, [None, Some("2".into()), Some("3".into())]);
}

#[tokio::test]
async fn a_page_that_is_not_an_array_is_an_error() {
    let server = TestServer::start(|_, _: &Recorded| Reply::json(200, r#"{"items":[]}"#)).await;
    let client = email_client(&server).build().expect("client");
    let items: Vec<Result<serde_json::Value, Error>> =
        paginate(client, tidings_runtime::Request::new(&LIST_EMAILS), &BARE)
            .collect()
            .await;
    assert_eq!(items.len(), 1);
    let err = items.into_iter().next().unwrap().unwrap_err();
    assert!(err.to_string().contains("not an array"), "{err}");
}
