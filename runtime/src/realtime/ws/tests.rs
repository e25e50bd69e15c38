use super::*;
use crate::ErrorKind;
use crate::realtime::test_spec::SPEC;

fn url(base: &str) -> Result<url::Url, Error> {
    ConnectionBuilder::new(&SPEC, base, "app-key").url()
}

fn event(i: usize) -> ChannelEvent {
    ChannelEvent {
        event: "e".into(),
        channel: "c".into(),
        data: Some(i.to_string()),
        user_id: None,
    }
}

#[tokio::test]
async fn a_channel_queue_holds_at_most_event_buffer_events_then_skips_and_shrinks() {
    let queue = EventQueue::default();
    for i in 0..EVENT_BUFFER + 5 {
        queue.push(event(i));
    }
    assert_eq!(
        queue.lock().skipped,
        5,
        "the newest beyond the bound are skipped"
    );
    for i in 0..EVENT_BUFFER {
        assert_eq!(queue.pop("c").await.unwrap().data, Some(i.to_string()));
    }
    assert!(
        queue.lock().events.capacity() <= 64,
        "the burst's memory is given back"
    );
    queue.push(event(7));
    queue.close();
    assert_eq!(queue.pop("c").await.unwrap().data.as_deref(), Some("7"));
    assert!(queue.pop("c").await.is_none(), "closed and drained");
}

#[test]
fn plain_schemes_become_ws() {
    for base in ["ws://127.0.0.1:6001", "http://127.0.0.1:6001/"] {
        let url = url(base).unwrap();
        assert_eq!(url.scheme(), "ws", "{base}");
        assert_eq!(url.path(), "/app/app-key", "{base}");
    }
    assert_eq!(
        url("ftp://127.0.0.1").unwrap_err().kind(),
        ErrorKind::Config
    );
}

#[cfg(feature = "tls")]
#[test]
fn tls_schemes_become_wss() {
    for base in ["wss://ws.example.com", "https://ws.example.com"] {
        assert_eq!(url(base).unwrap().scheme(), "wss", "{base}");
    }
}

#[cfg(not(feature = "tls"))]
#[test]
fn tls_schemes_need_the_tls_feature() {
    for base in ["wss://ws.example.com", "https://ws.example.com"] {
        let err = url(base).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Config, "{base}");
        let message = err.to_string();
        assert!(
            message.contains("needs TLS, which is not compiled in"),
            "{message}"
        );
        assert!(message.contains("`tls` feature"), "{message}");
    }
}
