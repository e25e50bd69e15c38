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

/// A connection to a port nothing listens on: it keeps retrying in the background.
fn unreachable() -> Connection {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    ConnectionBuilder::new(&SPEC, format!("ws://127.0.0.1:{port}"), "app-key")
        .connect()
        .unwrap()
}

#[tokio::test]
async fn waiting_for_a_subscription_ends_when_the_channel_is_unsubscribed() {
    let connection = unreachable();
    let mut channel = connection.subscribe("news").unwrap();
    let mut own = connection.listen("#own");
    let news = tokio::spawn(async move { channel.wait_subscribed(Duration::from_secs(10)).await });
    let own = tokio::spawn(async move { own.wait_subscribed(Duration::from_secs(10)).await });
    tokio::time::sleep(Duration::from_millis(50)).await;
    // One at a time: each waiter wakes for its own channel's removal.
    connection.unsubscribe("#own");
    let own = tokio::time::timeout(Duration::from_secs(2), own)
        .await
        .expect("a listened channel's waiter wakes")
        .unwrap();
    connection.unsubscribe("news");
    let news = tokio::time::timeout(Duration::from_secs(2), news)
        .await
        .expect("a subscribed channel's waiter wakes")
        .unwrap();
    for result in [news, own] {
        let message = result.unwrap_err().to_string();
        assert!(message.contains("was unsubscribed"), "{message}");
    }
    // A new subscription to the name is a new channel: the old handle does not see it.
    let old = connection.listen("again");
    connection.unsubscribe("again");
    let new = connection.listen("again");
    assert!(!old.is_subscribed() && !new.is_subscribed());
    assert_eq!(old.name(), "again");
    connection.disconnect();
}

#[tokio::test]
async fn commands_are_refused_once_the_connection_task_has_ended() {
    let connection = unreachable();
    connection.send_frame(Frame::new("queued")).unwrap();
    connection.disconnect();
    connection
        .wait_for(ConnectionState::Disconnected, Duration::from_secs(5))
        .await
        .unwrap();
    // The task's end is marked just after the state change.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let err = connection.send_frame(Frame::new("late")).unwrap_err();
    assert!(err.to_string().contains("connection task ended"), "{err}");
    assert!(
        connection.shared.lock().commands.is_empty(),
        "nothing is kept for a task that is gone"
    );
}

#[tokio::test]
async fn frames_beyond_the_queue_bound_are_refused_and_a_full_queue_still_disconnects() {
    // A current-thread runtime: the connection task cannot run (and drain) until this awaits.
    let connection = unreachable();
    for n in 0..MAX_QUEUED_COMMANDS {
        connection
            .send_frame(Frame::new("queued"))
            .unwrap_or_else(|e| panic!("frame {n}: {e}"));
    }
    let err = connection
        .send_frame(Frame::new("one too many"))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Transport, "{err}");
    assert!(err.to_string().contains("send queue is full"), "{err}");
    assert_eq!(connection.shared.lock().commands.len(), MAX_QUEUED_COMMANDS);
    // Control commands still go in: the full connection can be closed.
    connection.disconnect();
    connection
        .wait_for(ConnectionState::Disconnected, Duration::from_secs(5))
        .await
        .unwrap();
}
