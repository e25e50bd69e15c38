//! Form and multipart bodies, answer kinds (text, bytes, 200-or-204) and every pagination style,
//! end to end: a client generated from `tests/specs/bodies.yaml` against a scripted server on
//! loopback that records what went over the wire, and against the server generated from the same
//! spec (the sandbox's support code: form decoding, paging in each style).

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

#[allow(
    dead_code,
    clippy::all,
    clippy::pedantic,
    missing_docs,
    unreachable_pub
)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/bodies.rs"));
    include!(concat!(env!("OUT_DIR"), "/bodies_server.rs"));
}

use futures_util::StreamExt;
use generated::bodies::{
    BodiesClient, Contact, CreateMessageRequest, ListByTokenQuery, ListListsQuery,
    ListMessagesQuery, ListNumberedQuery, ListOffsetQuery, SendOptions, Upload,
};
use serde_json::json;
use tidings_runtime::form::FilePart;
use tidings_runtime::{ErrorKind, NextPage};
use tidings_tests::{Recorded, Reply, TestServer};

const KEY: &str = "test-key-bodies-0123";
const APP_ID: &str = "app-bodies-42";

fn client(server: &TestServer) -> BodiesClient {
    BodiesClient::builder()
        .base_url(server.url())
        .api_key(KEY)
        .build()
        .unwrap()
}

fn twilio_request() -> CreateMessageRequest {
    CreateMessageRequest::new("+15558675310", "+15017122661")
        .body("Hello & welcome")
        .media_url([
            "https://demo.twilio.com/owl.png",
            "https://demo.twilio.com/logo.png",
        ])
        .options(SendOptions::default().validity_period(600))
}

fn query(r: &Recorded, name: &str) -> Option<String> {
    r.query_pairs().get(name).cloned()
}

fn ids(n: std::ops::Range<usize>) -> Vec<serde_json::Value> {
    n.map(|i| json!({"sid": format!("SM{i}"), "id": format!("m{i}")}))
        .collect()
}

async fn collect(
    stream: tidings_runtime::ItemStream<generated::bodies::Message>,
) -> Vec<Result<String, tidings_runtime::Error>> {
    stream.map(|m| m.map(|m| m.sid)).collect().await
}

fn sids(items: Vec<Result<String, tidings_runtime::Error>>) -> Vec<String> {
    items.into_iter().map(Result::unwrap).collect()
}

#[tokio::test]
async fn form_body_goes_out_twilio_style_byte_for_byte() {
    let server = TestServer::start(|_| {
        Reply::json(
            201,
            json!({"sid": "SM1", "status": "queued", "num_media": 2}),
        )
    })
    .await;
    let sent = client(&server)
        .create_message("AC123", &twilio_request())
        .await
        .unwrap();
    assert_eq!(sent.sid, "SM1");
    assert_eq!(sent.num_media, Some(2));

    let r = &server.requests()[0];
    assert_eq!(
        (r.method.as_str(), r.path.as_str()),
        ("POST", "/2010-04-01/Accounts/AC123/Messages.json")
    );
    assert_eq!(
        r.header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(
        String::from_utf8(r.body.clone()).unwrap(),
        "To=%2B15558675310&From=%2B15017122661&Body=Hello+%26+welcome\
         &MediaUrl=https%3A%2F%2Fdemo.twilio.com%2Fowl.png\
         &MediaUrl=https%3A%2F%2Fdemo.twilio.com%2Flogo.png\
         &Options%5BValidityPeriod%5D=600"
    );
}

#[tokio::test]
async fn form_style_indexed_with_dots_is_followed() {
    let server = TestServer::start(|_| Reply::json(204, json!(null))).await;
    client(&server)
        .send_indexed(&twilio_request())
        .await
        .unwrap();
    let r = &server.requests()[0];
    assert_eq!(
        String::from_utf8(r.body.clone()).unwrap(),
        "To=%2B15558675310&From=%2B15017122661&Body=Hello+%26+welcome\
         &MediaUrl%5B0%5D=https%3A%2F%2Fdemo.twilio.com%2Fowl.png\
         &MediaUrl%5B1%5D=https%3A%2F%2Fdemo.twilio.com%2Flogo.png\
         &Options.ValidityPeriod=600"
    );
}

#[tokio::test]
async fn form_body_checks_run_before_anything_is_sent() {
    let server = TestServer::start(|_| Reply::json(201, json!({"sid": "SM1"}))).await;
    let bad = CreateMessageRequest::new("not-a-number", "+15017122661");
    let err = client(&server)
        .create_message("AC123", &bad)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRequest);
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn multipart_body_has_one_part_per_field_and_array_item() {
    let server = TestServer::start(|_| Reply::json(204, json!(null))).await;
    client(&server)
        .upload(
            &Upload::new("Quarterly \"report\"")
                .tags(["a", "b"])
                .attachment(FilePart::new(
                    "q3.csv",
                    "text/csv",
                    b"a,b\r\n1,2\r\n".to_vec(),
                )),
        )
        .await
        .unwrap();
    let r = &server.requests()[0];
    let content_type = r.header("content-type").unwrap();
    let boundary = content_type
        .strip_prefix("multipart/form-data; boundary=")
        .unwrap();
    let body = String::from_utf8(r.body.clone()).unwrap();
    let parts: Vec<&str> = body
        .split(&format!("--{boundary}"))
        .filter(|p| p.starts_with("\r\n"))
        .collect();
    assert_eq!(parts.len(), 4, "{body}");
    assert!(parts[0].contains("name=\"title\"\r\n\r\nQuarterly \"report\"\r\n"));
    assert!(parts[1].contains("name=\"tags[]\"\r\n\r\na\r\n"));
    assert!(parts[2].contains("name=\"tags[]\"\r\n\r\nb\r\n"));
    assert!(parts[3].contains(
        "name=\"attachment\"; filename=\"q3.csv\"\r\nContent-Type: text/csv\r\n\r\na,b\r\n1,2\r\n\r\n"
    ));
    assert!(body.ends_with(&format!("--{boundary}--\r\n")));
}

#[tokio::test]
async fn an_answer_with_a_body_or_a_204_both_decode() {
    let server = TestServer::start(|r| {
        if r.path.ends_with("/c1") {
            Reply::json(200, json!({"id": "c1", "email": "ada@example.com"}))
        } else {
            Reply {
                status: 204,
                headers: vec![],
                body: vec![],
            }
        }
    })
    .await;
    let c = client(&server);
    let updated = c
        .update_contact("c1", &Contact::new("c1"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(updated.email.as_deref(), Some("ada@example.com"));
    assert_eq!(
        c.update_contact("c2", &Contact::new("c2")).await.unwrap(),
        None
    );
}

#[tokio::test]
async fn text_and_bytes_answers_are_returned_as_they_are() {
    let server = TestServer::start(|r| Reply {
        status: 200,
        headers: vec![("content-type".into(), "text/plain".into())],
        body: if r.path == "/v1/report" {
            "date,sent\n2026-11-24,3\n".into()
        } else {
            vec![0, 159, 146, 150, 255]
        },
    })
    .await;
    let c = client(&server);
    assert_eq!(c.get_report().await.unwrap(), "date,sent\n2026-11-24,3\n");
    assert_eq!(
        c.get_media("me1").await.unwrap(),
        vec![0, 159, 146, 150, 255]
    );
}

#[tokio::test]
async fn next_url_relative_twilio_style_walks_three_pages() {
    let server = TestServer::start(|r| {
        let page: usize = query(r, "Page").and_then(|p| p.parse().ok()).unwrap_or(0);
        let next = (page < 2).then(|| {
            format!(
                "/2010-04-01/Accounts/AC1/Messages.json?PageSize=2&Page={}&PageToken=PA{}",
                page + 1,
                page + 1
            )
        });
        Reply::json(
            200,
            json!({"messages": ids(page * 2..page * 2 + 2), "next_page_uri": next, "page": page}),
        )
    })
    .await;
    let c = client(&server);
    let q = ListMessagesQuery::default().page_size(2);
    let first = c.list_messages("AC1", &q).await.unwrap();
    assert_eq!(first.messages.len(), 2);
    assert!(first.next_page_uri.is_some());
    let got = sids(collect(c.list_messages_stream("AC1", &q)).await);
    assert_eq!(got, ["SM0", "SM1", "SM2", "SM3", "SM4", "SM5"]);
    let requests = server.requests();
    assert_eq!(requests.len(), 4);
    assert_eq!(requests[3].query, "PageSize=2&Page=2&PageToken=PA2");
    assert!(
        requests
            .iter()
            .all(|r| r.header("authorization") == Some(&format!("Bearer {KEY}")[..]))
    );
}

#[tokio::test]
async fn next_url_absolute_in_a_nested_field_walks_three_pages() {
    let server = TestServer::start(move |r| {
        let host = r.header("host").unwrap().to_owned();
        let token: usize = query(r, "page_token")
            .and_then(|p| p.parse().ok())
            .unwrap_or(0);
        let next = (token < 2).then(|| {
            format!(
                "http://{host}/v3/marketing/lists?page_size=2&page_token={}",
                token + 1
            )
        });
        Reply::json(
            200,
            json!({"result": ids(token * 2..token * 2 + 2), "_metadata": {"next": next, "count": 6}}),
        )
    })
    .await;
    let c = client(&server);
    let page = c
        .list_lists(&ListListsQuery::default().page_size(2))
        .await
        .unwrap();
    assert_eq!(page.items.len(), 2);
    assert!(matches!(&page.next, Some(NextPage::Url(u)) if u.ends_with("page_token=1")));
    let got = sids(collect(c.list_lists_stream(&ListListsQuery::default().page_size(2))).await);
    assert_eq!(got.len(), 6);
    assert_eq!(server.requests().len(), 4);
}

#[tokio::test]
async fn a_next_link_on_an_empty_page_ends_the_stream() {
    // Mailgun gives a next link on every page, the empty one after the last item included.
    let server = TestServer::start(move |r| {
        let host = r.header("host").unwrap().to_owned();
        let token: usize = query(r, "page_token")
            .and_then(|p| p.parse().ok())
            .unwrap_or(0);
        let next = format!(
            "http://{host}/v3/marketing/lists?page_size=2&page_token={}",
            token + 1
        );
        let items = if token < 3 {
            ids(token * 2..token * 2 + 2)
        } else {
            vec![]
        };
        Reply::json(200, json!({"result": items, "_metadata": {"next": next}}))
    })
    .await;
    let c = client(&server);
    let got = sids(collect(c.list_lists_stream(&ListListsQuery::default().page_size(2))).await);
    assert_eq!(got, ["SM0", "SM1", "SM2", "SM3", "SM4", "SM5"]);
    assert_eq!(server.requests().len(), 4, "three pages and the empty one");
}

#[tokio::test]
async fn token_at_a_nested_path_walks_three_pages() {
    let server = TestServer::start(|r| {
        let at = match query(r, "PageToken").as_deref() {
            None => 0,
            Some("t1") => 1,
            Some("t2") => 2,
            Some(_) => 9,
        };
        let next = match at {
            0 => json!("t1"),
            1 => json!("t2"),
            _ => json!(""),
        };
        Reply::json(
            200,
            json!({"result": {"items": ids(at * 3..at * 3 + 3)}, "meta": {"next_page_token": next}}),
        )
    })
    .await;
    let c = client(&server);
    let page = c.list_by_token(&ListByTokenQuery::default()).await.unwrap();
    assert_eq!(page.next, Some(NextPage::Token("t1".into())));
    let got = sids(collect(c.list_by_token_stream(&ListByTokenQuery::default())).await);
    assert_eq!(got.len(), 9);
    assert_eq!(got[8], "SM8");
}

#[tokio::test]
async fn link_header_rel_next_walks_three_pages() {
    let server = TestServer::start(|r| {
        let page: usize = query(r, "page").and_then(|p| p.parse().ok()).unwrap_or(1);
        let reply = Reply::json(200, json!({"data": ids(page * 10..page * 10 + 2)}));
        let mut links = String::from("</v1/linked?page=1>; rel=\"first\"");
        if page < 3 {
            links.push_str(&format!(", </v1/linked?page={}>; rel=\"next\"", page + 1));
        }
        reply.header("link", &links)
    })
    .await;
    let got = sids(collect(client(&server).list_linked_stream()).await);
    assert_eq!(got, ["SM10", "SM11", "SM20", "SM21", "SM30", "SM31"]);
}

#[tokio::test]
async fn offset_and_count_with_a_total_walks_three_pages_and_stops_at_the_total() {
    let server = TestServer::start(|r| {
        let offset: usize = query(r, "offset").and_then(|p| p.parse().ok()).unwrap_or(0);
        let count: usize = query(r, "count").and_then(|p| p.parse().ok()).unwrap_or(3);
        let end = (offset + count).min(7);
        Reply::json(200, json!({"items": ids(offset..end), "total": 7}))
    })
    .await;
    let q = ListOffsetQuery::default().count(3);
    let got = sids(collect(client(&server).list_offset_stream(&q)).await);
    assert_eq!(got.len(), 7);
    let offsets: Vec<Option<String>> = server
        .requests()
        .iter()
        .map(|r| query(r, "offset"))
        .collect();
    assert_eq!(offsets, [None, Some("3".into()), Some("6".into())]);
}

#[tokio::test]
async fn page_numbers_from_zero_walk_three_pages_and_stop_at_total_pages() {
    let server = TestServer::start(|r| {
        let page: usize = query(r, "page").and_then(|p| p.parse().ok()).unwrap_or(0);
        Reply::json(
            200,
            json!({"items": ids(page * 2..page * 2 + 2), "total_pages": 3}),
        )
    })
    .await;
    let q = ListNumberedQuery::default().page_size(2);
    let got = sids(collect(client(&server).list_numbered_stream(&q)).await);
    assert_eq!(got.len(), 6);
    let pages: Vec<Option<String>> = server.requests().iter().map(|r| query(r, "page")).collect();
    assert_eq!(pages, [None, Some("1".into()), Some("2".into())]);
}

#[tokio::test]
async fn the_services_cursor_style_still_walks_three_pages() {
    let server = TestServer::start(|r| {
        let after = query(r, "after");
        let (ids, more) = match after.as_deref() {
            None => (["c1", "c2"], true),
            Some("c2") => (["c3", "c4"], true),
            _ => (["c5", "c6"], false),
        };
        Reply::json(
            200,
            json!({"data": ids.map(|id| json!({"id": id})), "has_more": more}),
        )
    })
    .await;
    let got: Vec<String> = client(&server)
        .list_contacts_stream(&Default::default())
        .map(|c| c.unwrap().id)
        .collect()
        .await;
    assert_eq!(got, ["c1", "c2", "c3", "c4", "c5", "c6"]);
}

#[tokio::test]
async fn a_next_link_to_another_host_is_not_followed() {
    let server = TestServer::start(|_| {
        Reply::json(
            200,
            json!({"result": ids(0..1), "_metadata": {"next": "http://attacker.example/v3/marketing/lists?page_token=x"}}),
        )
    })
    .await;
    let items = collect(client(&server).list_lists_stream(&ListListsQuery::default())).await;
    assert_eq!(items.len(), 2);
    assert_eq!(items[0].as_deref().unwrap(), "SM0");
    let err = items[1].as_ref().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Decode);
    assert!(err.to_string().contains("another origin"), "{err}");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_repeated_next_link_ends_the_stream_with_an_error() {
    let server = TestServer::start(|_| {
        Reply::json(
            200,
            json!({"messages": ids(0..1), "next_page_uri": "/2010-04-01/Accounts/AC1/Messages.json?Page=1"}),
        )
    })
    .await;
    let items = collect(client(&server).list_messages_stream("AC1", &Default::default())).await;
    assert_eq!(items.len(), 3, "two pages of one item, then the error");
    let err = items[2].as_ref().unwrap_err();
    assert!(err.to_string().contains("repeated"), "{err}");
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_stream_stops_at_its_page_limit() {
    let server = TestServer::start(|r| {
        let page: usize = query(r, "page").and_then(|p| p.parse().ok()).unwrap_or(0);
        Reply::json(200, json!({"items": ids(page..page + 1)}))
    })
    .await;
    let stream = client(&server)
        .list_numbered_stream(&Default::default())
        .max_pages(4);
    let items = collect(stream).await;
    assert_eq!(items.len(), 5);
    let err = items[4].as_ref().unwrap_err();
    assert!(err.to_string().contains("page limit"), "{err}");
    assert_eq!(server.requests().len(), 4);
}

// ---- the generated server side, served by the sandbox's support code ----------------------

mod served {
    use super::generated::bodies::{
        Contact, CreateMessageRequest, ListByTokenQuery, ListListsQuery, ListMessagesQuery,
        ListNumberedQuery, ListOffsetQuery, Message, MessagePage, Page, SERVICE, Upload,
    };
    use super::generated::bodies_server::BodiesServer;
    use tidings_sandbox::server::{Gateway, RequestContext, ServerError};

    pub struct Store {
        pub gateway: Gateway,
        pub resources: tidings_sandbox::server::Resources,
        pub messages: Vec<Message>,
    }

    impl Store {
        pub fn new(key: &str, count: usize) -> Store {
            let messages = (0..count)
                .map(|i| Message {
                    sid: format!("SM{i}"),
                    id: Some(format!("m{i}")),
                    status: None,
                    num_media: None,
                })
                .collect();
            Store {
                gateway: Gateway::new(&SERVICE)
                    .credential("api_key", key)
                    .credential("app_id", super::APP_ID),
                resources: tidings_sandbox::server::Resources::new(Default::default()),
                messages,
            }
        }
    }

    type Answer<T> = Result<T, ServerError>;

    impl BodiesServer for Store {
        fn gateway(&self) -> &Gateway {
            &self.gateway
        }
        fn resource_store(&self) -> &tidings_sandbox::server::Resources {
            &self.resources
        }
        async fn create_message(
            &self,
            _: RequestContext,
            _account_sid: String,
            body: CreateMessageRequest,
        ) -> Answer<Message> {
            Ok(Message {
                sid: format!("SM-{}-{}", body.to, body.from),
                id: body.body,
                status: body
                    .options
                    .and_then(|o| o.validity_period)
                    .map(|v| v.to_string()),
                num_media: Some(i64::try_from(body.media_url.unwrap_or_default().len()).unwrap()),
            })
        }
        async fn list_messages(
            &self,
            _: RequestContext,
            _account_sid: String,
            _: ListMessagesQuery,
        ) -> Answer<MessagePage> {
            Ok(MessagePage {
                messages: self.messages.clone(),
                next_page_uri: None,
                page: Some(0),
            })
        }
        async fn list_lists(&self, _: RequestContext, _: ListListsQuery) -> Answer<Vec<Message>> {
            Ok(self.messages.clone())
        }
        async fn list_by_token(
            &self,
            _: RequestContext,
            _: ListByTokenQuery,
        ) -> Answer<Vec<Message>> {
            Ok(self.messages.clone())
        }
        async fn list_linked(&self, _: RequestContext) -> Answer<Vec<Message>> {
            Ok(self.messages.clone())
        }
        async fn list_offset(&self, _: RequestContext, _: ListOffsetQuery) -> Answer<Vec<Message>> {
            Ok(self.messages.clone())
        }
        async fn list_numbered(
            &self,
            _: RequestContext,
            _: ListNumberedQuery,
        ) -> Answer<Vec<Message>> {
            Ok(self.messages.clone())
        }
        async fn list_contacts(
            &self,
            _: RequestContext,
            _: super::generated::bodies::ListContactsQuery,
        ) -> Answer<Page<Contact>> {
            Ok(Page {
                data: vec![Contact::new("c1")],
                has_more: false,
            })
        }
        async fn search_contacts(
            &self,
            _: RequestContext,
            query: super::generated::bodies::SearchContactsQuery,
        ) -> Answer<Vec<Contact>> {
            // Answers what arrived, so the test sees every field of both parameters.
            let sort = query.sort.unwrap_or_default();
            let by = sort
                .iter()
                .map(|s| format!("{}:{}", s.field, s.direction.unwrap_or(1)))
                .collect::<Vec<_>>()
                .join(",");
            let tags = query.filter.tags.unwrap_or_default().join("+");
            Ok(vec![
                Contact::new(format!("{by}|{tags}")).email(query.filter.email),
            ])
        }
        async fn update_contact(
            &self,
            _: RequestContext,
            id: String,
            body: Contact,
        ) -> Answer<Option<Contact>> {
            Ok((id == "c1").then_some(body))
        }
        async fn get_report(&self, _: RequestContext) -> Answer<String> {
            Ok("a,b\n1,2\n".into())
        }
        async fn get_usage(&self, _: RequestContext) -> Answer<String> {
            Ok("calls: 7".into())
        }
        async fn get_media(&self, _: RequestContext, id: String) -> Answer<Vec<u8>> {
            Ok(id.into_bytes().into_iter().chain([0, 255]).collect())
        }
        async fn upload(&self, _: RequestContext, body: Upload) -> Answer<()> {
            let file_ok = body.attachment.is_none_or(|f| {
                f.filename == "q3.csv" && f.content_type == "text/csv" && f.data == b"a,b\r\n1,2"
            });
            if body.tags.unwrap_or_default().len() == 2 && file_ok {
                Ok(())
            } else {
                Err(ServerError::bad_request(format!("tags of {}", body.title)))
            }
        }
        async fn upload_media(
            &self,
            _: RequestContext,
            body: tidings_runtime::Binary,
        ) -> Answer<String> {
            let sum: u64 = body.data().iter().map(|b| u64::from(*b)).sum();
            Ok(format!("{} {} {sum}", body.content_type(), body.len()))
        }
        async fn send_indexed(&self, _: RequestContext, body: CreateMessageRequest) -> Answer<()> {
            if body.media_url.unwrap_or_default().len() == 2 {
                Ok(())
            } else {
                Err(ServerError::bad_request("media"))
            }
        }
    }

    /// Serves the generated router over `store` on a loopback port; its base URL.
    pub async fn serve(store: Store) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let router = super::generated::bodies_server::router(std::sync::Arc::new(store));
        tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        format!("http://{addr}")
    }
}

async fn served_client(count: usize) -> BodiesClient {
    let url = served::serve(served::Store::new(KEY, count)).await;
    BodiesClient::builder()
        .base_url(url)
        .api_key(KEY)
        .build()
        .unwrap()
}

#[tokio::test]
async fn the_generated_server_decodes_form_and_multipart_bodies_into_the_request_types() {
    let c = served_client(0).await;
    let sent = c.create_message("AC1", &twilio_request()).await.unwrap();
    assert_eq!(sent.sid, "SM-+15558675310-+15017122661");
    assert_eq!(sent.id.as_deref(), Some("Hello & welcome"));
    assert_eq!(sent.status.as_deref(), Some("600"));
    assert_eq!(sent.num_media, Some(2));
    c.send_indexed(&twilio_request()).await.unwrap();
    c.upload(
        &Upload::new("report")
            .tags(["a", "b"])
            .attachment(FilePart::new("q3.csv", "text/csv", b"a,b\r\n1,2".to_vec())),
    )
    .await
    .unwrap();
    let wrong_file = Upload::new("report")
        .tags(["a", "b"])
        .attachment(FilePart::new("q3.csv", "text/csv", b"other".to_vec()));
    assert_eq!(c.upload(&wrong_file).await.unwrap_err().status(), Some(400));
    let err = c
        .upload(&Upload::new("report").tags(["a"]))
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(400));
}

/// An operation that needs the key and the app id together (`auth: bearer_and_app`): the
/// generated client sends both, and the generated server refuses the key alone; a client
/// without the app id still serves the other operations, and names what `get_usage` lacks.
#[tokio::test]
async fn an_operation_needing_two_schemes_together_gets_both() {
    let url = served::serve(served::Store::new(KEY, 0)).await;
    let both = BodiesClient::builder()
        .base_url(&url)
        .api_key(KEY)
        .credential("app_id", APP_ID)
        .build()
        .unwrap();
    assert_eq!(both.get_usage().await.unwrap(), "calls: 7");
    let key_only = BodiesClient::builder()
        .base_url(&url)
        .api_key(KEY)
        .build()
        .unwrap();
    assert_eq!(key_only.get_report().await.unwrap(), "a,b\n1,2\n");
    let err = key_only.get_usage().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Config, "{err}");
    assert!(
        err.to_string().contains("COMMS_TEST_BODIES_APP_ID"),
        "{err}"
    );
    let bare = tidings_runtime::reqwest::Client::new()
        .get(format!("{url}/v1/usage"))
        .bearer_auth(KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(bare.status(), 401);
}

/// A query parameter of a structured type (`style: json`, Stream's `payload`) travels as its
/// JSON text, every field of it, and the server reads it back typed; text that is not the
/// JSON the parameter takes is refused.
#[tokio::test]
async fn a_json_query_parameter_carries_its_whole_structure() {
    let url = served::serve(served::Store::new(KEY, 0)).await;
    let c = BodiesClient::builder()
        .base_url(&url)
        .api_key(KEY)
        .build()
        .unwrap();
    let filter = generated::bodies::ContactFilter::new("ann&bob@example.com")
        .tags(["vip".to_owned(), "a b".to_owned()]);
    let sort = vec![
        generated::bodies::SortBy::new("created_at").direction(-1),
        generated::bodies::SortBy::new("email"),
    ];
    let query = generated::bodies::SearchContactsQuery::new(filter).sort(sort);
    let found = c.search_contacts(&query).await.unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].id, "created_at:-1,email:1|vip+a b");
    assert_eq!(found[0].email.as_deref(), Some("ann&bob@example.com"));

    let raw = |query: &'static str| {
        tidings_runtime::reqwest::Client::new()
            .get(format!("{url}/v1/contacts/search?{query}"))
            .bearer_auth(KEY)
            .send()
    };
    let ok = raw(r#"filter=%7B%22email%22%3A%22x%22%7D"#).await.unwrap();
    assert_eq!(ok.status(), 200);
    for bad in ["filter=x", r#"filter=%7B%22tags%22%3A%5B%5D%7D"#] {
        let refused = raw(bad).await.unwrap();
        assert!(
            refused.status().is_client_error(),
            "{bad}: {}",
            refused.status()
        );
    }
}

#[tokio::test]
async fn a_binary_body_arrives_byte_for_byte_with_its_media_type_and_others_are_refused() {
    let url = served::serve(served::Store::new(KEY, 0)).await;
    let c = BodiesClient::builder()
        .base_url(&url)
        .api_key(KEY)
        .build()
        .unwrap();
    // Every byte value, CR/LF and NUL included: nothing is re-encoded on the way.
    let data: Vec<u8> = (0..=255u8).cycle().take(70_000).collect();
    let sum: u64 = data.iter().map(|b| u64::from(*b)).sum();
    let answer = c
        .upload_media(tidings_runtime::Binary::new("image/png", data.clone()))
        .await
        .unwrap();
    assert_eq!(answer, format!("image/png 70000 {sum}"));
    // A media type the operation does not take: refused before sending, naming the types.
    let err = c
        .upload_media(tidings_runtime::Binary::new("text/plain", data.clone()))
        .await
        .unwrap_err();
    assert!(err.status().is_none(), "{err}");
    assert!(err.to_string().contains("image/png, image/jpeg"), "{err}");
    let err = c
        .upload_media(tidings_runtime::Binary::new(
            "image/png
X-Evil: 1",
            vec![1],
        ))
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("not a valid `Content-Type`"),
        "{err}"
    );
    // Sent anyway by another client: the server refuses it with 415.
    let raw = reqwest::Client::new()
        .post(format!("{url}/v1/media"))
        .bearer_auth(KEY)
        .header("content-type", "text/plain")
        .body(data)
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 415);
    let text = raw.text().await.unwrap();
    assert!(text.contains("image/png` or `image/jpeg"), "{text}");
}

/// `specs/bodies.yaml` served as `--spec` serves it, its API key, and a client with that key.
async fn served_spec() -> (tidings_sandbox::served::ServedService, String, BodiesClient) {
    use tidings_sandbox::served::{ServeConfig, ServedService, load};
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/bodies.yaml");
    let mut services = load(&path).unwrap();
    let served = ServedService::start(services.remove(0), ServeConfig::default())
        .await
        .unwrap();
    let key = served.credential("api_key").unwrap().to_owned();
    let c = BodiesClient::builder()
        .base_url(served.base_url())
        .api_key(key.as_str())
        .build()
        .unwrap();
    (served, key, c)
}

#[tokio::test]
async fn sandbox_spec_serves_a_binary_body_and_refuses_other_media_types() {
    let (served, key, c) = served_spec().await;
    let jpeg = tidings_runtime::Binary::new("image/jpeg", vec![0xff, 0xd8, 0xff, 0, b'\n']);
    c.upload_media(jpeg).await.unwrap();
    let http = tidings_runtime::reqwest::Client::new();
    let send = |content_type: Option<&'static str>, body: &'static [u8]| {
        let mut request = http
            .post(format!("{}/v1/media", served.base_url()))
            .bearer_auth(&key)
            .body(body);
        if let Some(t) = content_type {
            request = request.header("content-type", t);
        }
        request.send()
    };
    assert_eq!(
        send(Some("image/png"), b"\x89PNG").await.unwrap().status(),
        200
    );
    for (content_type, body) in [(Some("text/plain"), &b"x"[..]), (None, &b"x"[..])] {
        let refused = send(content_type, body).await.unwrap();
        assert_eq!(refused.status(), 415, "{content_type:?}");
    }
    // No bytes at all is not a file.
    assert_eq!(send(Some("image/png"), b"").await.unwrap().status(), 400);
}

/// Under `--spec`, a `style: json` query parameter is read as JSON and checked as a body is:
/// the generated client's call is answered, and text that is not JSON, or JSON without a
/// required field, is a 422 that names the parameter.
#[tokio::test]
async fn sandbox_spec_reads_a_json_query_parameter_as_json_and_checks_it() {
    let (served, key, c) = served_spec().await;
    let query = generated::bodies::SearchContactsQuery::new(generated::bodies::ContactFilter::new(
        "ann@example.com",
    ))
    .sort(vec![generated::bodies::SortBy::new("email")]);
    c.search_contacts(&query).await.unwrap();
    let http = tidings_runtime::reqwest::Client::new();
    for (query, says) in [
        ("filter=%7Bnot", "`filter` must be JSON text"),
        ("filter=%7B%7D", "`filter.email` is required"),
        (
            "filter=%7B%22email%22%3A%22a%22%7D&sort=%5B%7B%22field%22%3A1%7D%5D",
            "`sort.0.field` must be",
        ),
    ] {
        let refused = http
            .get(format!("{}/v1/contacts/search?{query}", served.base_url()))
            .bearer_auth(&key)
            .send()
            .await
            .unwrap();
        assert_eq!(refused.status(), 422, "{query}");
        let text = refused.text().await.unwrap();
        assert!(text.contains(says), "{query}: {text}");
        assert!(!text.contains("invalid body"), "{query}: {text}");
    }
}

#[tokio::test]
async fn sandbox_spec_sends_the_documented_answer_headers_and_the_client_reads_them() {
    let (served, _, c) = served_spec().await;
    let answer = c
        .create_message("AC 1", &twilio_request())
        .with_headers()
        .await
        .unwrap();
    assert_eq!(answer.status(), 201);
    // The store's id (`id`, the resource's id field) names the created item.
    let id = answer.value().id.clone().unwrap();
    assert!(!id.is_empty());
    // The created item's place (Twilio's item path beside `Messages.json`), each part escaped.
    assert_eq!(
        answer.header("Location"),
        Some(format!("/2010-04-01/Accounts/AC%201/Messages/{id}.json").as_str())
    );
    let etag = answer.header("etag").unwrap();
    assert!(
        etag.starts_with('"') && etag.ends_with('"') && etag.len() > 2,
        "{etag}"
    );
    let segments: u32 = answer.header("x-segments").unwrap().parse().unwrap();
    assert!(segments >= 1);
    assert_eq!(
        answer.header("X-Queue"),
        Some("standard"),
        "an enum's value"
    );
    // Another answer, another body: another ETag.
    let again = c
        .create_message("AC 1", &twilio_request())
        .with_headers()
        .await
        .unwrap();
    assert_ne!(again.header("etag"), Some(etag));
    // An operation that documents none gets none of them.
    let listed = c
        .list_messages("AC 1", &ListMessagesQuery::default())
        .with_headers()
        .await
        .unwrap();
    assert_eq!(listed.header("location"), None);
    assert_eq!(listed.header("x-segments"), None);
    served.shutdown().await;
}

/// The generated server sends the headers an operation documents (`response_headers`), as
/// `--spec` does: the created item's place, an `ETag` of the answer, an integer, an enum's
/// value; an operation that documents none gets none.
#[tokio::test]
async fn the_generated_server_sends_the_headers_an_operation_documents() {
    let c = served_client(0).await;
    let answer = c
        .create_message("AC1", &twilio_request())
        .with_headers()
        .await
        .unwrap();
    assert_eq!(answer.status(), 201);
    let id = answer.value().id.clone().unwrap();
    let escaped = url::form_urlencoded::byte_serialize(id.as_bytes())
        .collect::<String>()
        .replace('+', "%20");
    assert_eq!(
        answer.header("Location"),
        Some(format!("/2010-04-01/Accounts/AC1/Messages/{escaped}.json").as_str())
    );
    let etag = answer.header("etag").unwrap();
    assert!(etag.starts_with('"') && etag.len() > 2, "{etag}");
    assert_eq!(answer.header("x-segments"), Some("1"));
    assert_eq!(
        answer.header("X-Queue"),
        Some("standard"),
        "an enum's first value"
    );
    let listed = c
        .list_messages("AC1", &ListMessagesQuery::default())
        .with_headers()
        .await
        .unwrap();
    assert_eq!(
        (listed.header("location"), listed.header("etag")),
        (None, None)
    );
}

#[tokio::test]
async fn the_generated_server_answers_text_bytes_and_200_or_204() {
    let c = served_client(0).await;
    assert_eq!(c.get_report().await.unwrap(), "a,b\n1,2\n");
    assert_eq!(c.get_media("x").await.unwrap(), [b'x', 0, 255]);
    assert_eq!(
        c.update_contact("c1", &Contact::new("c1")).await.unwrap(),
        Some(Contact::new("c1"))
    );
    assert_eq!(
        c.update_contact("c2", &Contact::new("c2")).await.unwrap(),
        None
    );
}

#[tokio::test]
async fn the_generated_server_pages_in_every_style_and_the_client_walks_them() {
    let c = served_client(7).await;
    let all: Vec<String> = (0..7).map(|i| format!("SM{i}")).collect();
    let lists = ListListsQuery::default().page_size(3);
    assert_eq!(sids(collect(c.list_lists_stream(&lists)).await), all);
    let first = c.list_lists(&lists).await.unwrap();
    assert_eq!(first.items.len(), 3);
    assert!(matches!(first.next, Some(NextPage::Url(_))));
    assert_eq!(
        sids(collect(c.list_by_token_stream(&ListByTokenQuery::default())).await),
        all
    );
    assert_eq!(sids(collect(c.list_linked_stream()).await), all);
    let offset = ListOffsetQuery::default().count(2);
    assert_eq!(sids(collect(c.list_offset_stream(&offset)).await), all);
    let numbered = ListNumberedQuery::default().page_size(3);
    assert_eq!(sids(collect(c.list_numbered_stream(&numbered)).await), all);
}

/// A map of URIs (Telnyx's `webhook_urls`: `map<string>` with `format: uri`): the client
/// refuses a value that is no URI before sending, naming its key, and `--spec` refuses it
/// as a 422 naming the same place; good values arrive.
#[tokio::test]
async fn each_value_of_a_map_with_a_format_is_checked_by_client_and_sandbox() {
    let (served, key, c) = served_spec().await;
    let good = Contact::new("c1").links([("home", "https://example.com/ann")]);
    c.update_contact("c1", &good).await.unwrap();
    let bad = Contact::new("c1").links([("home", "https://example.com/"), ("blog", "not a uri")]);
    let err = c.update_contact("c1", &bad).await.unwrap_err();
    assert_eq!(
        err.kind(),
        tidings_runtime::ErrorKind::InvalidRequest,
        "{err}"
    );
    assert!(err.to_string().contains("links[blog]"), "{err}");
    let refused = tidings_runtime::reqwest::Client::new()
        .put(format!("{}/v1/contacts/c1", served.base_url()))
        .bearer_auth(&key)
        .json(&serde_json::json!({"id": "c1", "links": {"blog": "not a uri"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 422);
    let text = refused.text().await.unwrap();
    assert!(text.contains("links.blog"), "{text}");
}

/// Enum values named by `rust_name` where their own names clash or are none (Telnyx's sort
/// orders `createdAt` and `-createdAt`, a `line_type` of `""`): each is a variant of its own,
/// written and read as its wire value.
#[test]
fn enum_values_named_by_rust_name_round_trip_as_their_wire_values() {
    use generated::bodies::SortOrder;
    for (order, wire) in [
        (SortOrder::CreatedAt, "\"createdAt\""),
        (SortOrder::CreatedAtDesc, "\"-createdAt\""),
        (SortOrder::Empty, "\"\""),
    ] {
        assert_eq!(serde_json::to_string(&order).unwrap(), wire);
        assert_eq!(serde_json::from_str::<SortOrder>(wire).unwrap(), order);
    }
}
