//! The SMTP listener's limits (issue 14: attacks 4, 7 and 8 and the smaller findings) over real
//! sockets on loopback, each with the exact bytes an attacker sends: smuggled ends of DATA,
//! header recipients, the recipient cap, the connection cap, idle/DATA/session/TLS handshake
//! timeouts, AUTH throttling, overlong command and DATA lines, `SIZE` and the storage cap.

#![allow(clippy::unwrap_used)]

mod smtp_support;

use std::time::{Duration, Instant};

use smtp_support::{auth_plain, connect, connect_tls, logged_in};
use tidings::email::ListEmailsQuery;
use tidings_sandbox::email::{EmailSandbox, EmailSandboxConfig};
use tidings_sandbox::smtp::SmtpConfig;
use tokio::io::AsyncWriteExt;

async fn sandbox(smtp: SmtpConfig) -> EmailSandbox {
    EmailSandbox::start(EmailSandboxConfig::default().smtp(Some(smtp)))
        .await
        .unwrap()
}

async fn stored(sandbox: &EmailSandbox) -> Vec<tidings::email::Email> {
    sandbox
        .client()
        .unwrap()
        .list_emails(&ListEmailsQuery::default())
        .await
        .unwrap()
        .data
}

#[tokio::test]
async fn a_smuggled_end_of_data_never_starts_a_second_message() {
    let sandbox = sandbox(SmtpConfig::default()).await;
    let mut client = logged_in(&sandbox).await;
    for smuggled in [&b"\n.\r\n"[..], b"\n.\n", b"\r.\r", b"\r\n.\n"] {
        client.expect("MAIL FROM:<ada@example.com>", 250).await;
        client.expect("RCPT TO:<grace@example.com>", 250).await;
        client.expect("DATA", 354).await;
        let mut bytes =
            b"From: ada@example.com\r\nTo: grace@example.com\r\nSubject: outer\r\n\r\nbody"
                .to_vec();
        bytes.extend_from_slice(smuggled);
        bytes.extend_from_slice(
            b"MAIL FROM:<ceo@example.com>\r\nRCPT TO:<victim@example.com>\r\nDATA\r\n\
              From: ceo@example.com\r\nTo: victim@example.com\r\nSubject: smuggled\r\n\r\npay now\r\n.\r\n",
        );
        client.send_raw(&bytes).await;
        let reply = client.reply().await.unwrap();
        assert_eq!(reply.code, 554, "{smuggled:?}: {reply:?}");
        assert!(reply.text.contains("Bare <CR> or <LF>"), "{reply:?}");
        // The next reply is the NOOP's: nothing of the smuggled commands was run.
        client.expect("NOOP", 250).await;
    }
    assert!(stored(&sandbox).await.is_empty(), "no message is stored");

    client.expect("MAIL FROM:<ada@example.com>", 250).await;
    client.expect("RCPT TO:<grace@example.com>", 250).await;
    client.expect("DATA", 354).await;
    client
        .send_raw(b"From: ada@example.com\r\nTo: grace@example.com\r\nSubject: clean\r\n\r\n..starts with a dot\r\n.\r\n")
        .await;
    assert_eq!(client.reply().await.unwrap().code, 250);
    let emails = stored(&sandbox).await;
    assert_eq!(emails.len(), 1);
    assert_eq!(emails[0].subject.as_deref(), Some("clean"));
    assert_eq!(
        emails[0].text.as_deref().map(str::trim),
        Some(".starts with a dot")
    );
    sandbox.shutdown().await;
}

#[tokio::test]
async fn recipients_are_the_envelope_s_and_headers_are_content() {
    let sandbox = sandbox(SmtpConfig::default()).await;
    let mut client = logged_in(&sandbox).await;
    client.expect("MAIL FROM:<ada@example.com>", 250).await;
    client.expect("RCPT TO:<a@x.example>", 250).await;
    client.expect("DATA", 354).await;
    client
        .send_raw(b"From: ada@example.com\r\nTo: b@y.example\r\nCc: c@z.example\r\nSubject: s\r\n\r\nhi\r\n.\r\n")
        .await;
    assert_eq!(client.reply().await.unwrap().code, 250);
    let emails = stored(&sandbox).await;
    assert_eq!(emails[0].to, vec!["a@x.example".to_owned()]);
    assert_eq!(emails[0].cc, None);
    assert_eq!(emails[0].bcc, None);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn the_recipient_cap_is_answered_at_rcpt_time() {
    let sandbox = sandbox(SmtpConfig::default()).await;
    let mut client = logged_in(&sandbox).await;
    client.expect("MAIL FROM:<ada@example.com>", 250).await;
    for i in 0..50 {
        client
            .expect(&format!("RCPT TO:<r{i}@example.com>"), 250)
            .await;
    }
    // A repeat is one recipient, not a 51st.
    client.expect("RCPT TO:<R0@example.com>", 250).await;
    let over = client.expect("RCPT TO:<r50@example.com>", 452).await;
    assert!(over.text.contains("Too many recipients"), "{over:?}");
    client.expect("DATA", 354).await;
    // Header recipients beyond the envelope's do not count (nor receive anything).
    let headers: Vec<String> = (100..120).map(|i| format!("h{i}@example.com")).collect();
    let message = format!(
        "From: ada@example.com\r\nTo: r0@example.com, {}\r\nSubject: many\r\n\r\nhi\r\n.\r\n",
        headers.join(", ")
    );
    client.send_raw(message.as_bytes()).await;
    let reply = client.reply().await.unwrap();
    assert_eq!(reply.code, 250, "{reply:?}");
    let email = &stored(&sandbox).await[0];
    let all: Vec<&String> = email
        .to
        .iter()
        .chain(email.cc.iter().flatten())
        .chain(email.bcc.iter().flatten())
        .collect();
    assert_eq!(all.len(), 50);
    assert!(all.iter().all(|a| a.starts_with('r')), "{all:?}");
    sandbox.shutdown().await;
}

#[tokio::test]
async fn connections_over_the_cap_are_answered_421_and_the_rest_api_keeps_answering() {
    let sandbox = sandbox(SmtpConfig::default().max_connections(3)).await;
    let addr = sandbox.smtp_addr().unwrap();
    let mut held = vec![
        connect(addr).await,
        connect(addr).await,
        connect(addr).await,
    ];
    let mut over = smtp_support::Client {
        io: tokio::io::BufReader::new(tokio::net::TcpStream::connect(addr).await.unwrap()),
    };
    let reply = over.reply().await.unwrap();
    assert_eq!(reply.code, 421, "{reply:?}");
    assert!(over.closed().await);
    assert!(stored(&sandbox).await.is_empty(), "the REST API answers");

    held.pop().unwrap().expect("QUIT", 221).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let mut again = smtp_support::Client {
            io: tokio::io::BufReader::new(tokio::net::TcpStream::connect(addr).await.unwrap()),
        };
        match again.reply().await.map(|r| r.code) {
            Some(220) => break,
            other => assert!(
                Instant::now() < deadline,
                "a freed slot is reused: {other:?}"
            ),
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    drop(held);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn an_idle_or_trickling_session_is_closed_at_the_idle_timeout() {
    let idle = Duration::from_millis(300);
    let sandbox = sandbox(SmtpConfig::default().idle_timeout(idle)).await;
    let addr = sandbox.smtp_addr().unwrap();

    let started = Instant::now();
    let mut silent = connect(addr).await;
    let reply = silent.reply().await.unwrap();
    assert_eq!(reply.code, 421, "{reply:?}");
    assert!(reply.text.contains("Idle timeout"));
    assert!(silent.closed().await);
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );

    // Slowloris: a byte every 100 ms (each well within the timeout) never makes a line whole.
    let started = Instant::now();
    let mut slow = connect(addr).await;
    for byte in b"NOOP NOOP" {
        if slow.io.get_mut().write_all(&[*byte]).await.is_err() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let reply = slow.reply().await.unwrap();
    assert_eq!(reply.code, 421, "{reply:?}");
    assert!(reply.text.contains("Idle timeout"), "{reply:?}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_busy_session_ends_at_the_session_limit_and_a_slow_message_at_the_data_limit() {
    let sandbox = sandbox(
        SmtpConfig::default()
            .session_timeout(Duration::from_millis(800))
            .data_timeout(Duration::from_millis(400)),
    )
    .await;
    let addr = sandbox.smtp_addr().unwrap();
    let started = Instant::now();
    let mut busy = connect(addr).await;
    let last = loop {
        match busy.command("NOOP").await {
            Some(r) if r.code == 250 => tokio::time::sleep(Duration::from_millis(50)).await,
            other => break other,
        }
        assert!(started.elapsed() < Duration::from_secs(5), "never closed");
    };
    let last = last.unwrap();
    assert_eq!(last.code, 421);
    assert!(last.text.contains("Session time limit"), "{last:?}");

    let mut client = logged_in(&sandbox).await;
    client.expect("MAIL FROM:<ada@example.com>", 250).await;
    client.expect("RCPT TO:<grace@example.com>", 250).await;
    client.expect("DATA", 354).await;
    let started = Instant::now();
    let reply = loop {
        client.send_raw(b"one more line\r\n").await;
        tokio::time::sleep(Duration::from_millis(50)).await;
        if started.elapsed() > Duration::from_millis(600) {
            break client.reply().await.unwrap();
        }
    };
    assert_eq!(reply.code, 421);
    assert!(reply.text.contains("DATA time limit"), "{reply:?}");
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_starttls_that_never_shakes_hands_is_closed() {
    let sandbox =
        sandbox(SmtpConfig::default().tls_handshake_timeout(Duration::from_millis(300))).await;
    let mut client = connect(sandbox.smtp_addr().unwrap()).await;
    client.expect("EHLO test", 250).await;
    client.expect("STARTTLS", 220).await;
    let started = Instant::now();
    assert!(client.closed().await);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    sandbox.shutdown().await;
}

#[tokio::test]
async fn auth_failures_are_slowed_then_closed_per_connection_and_per_address() {
    let delay = Duration::from_millis(150);
    let sandbox =
        sandbox(SmtpConfig::default().auth_throttle(2, 3, Duration::from_secs(60), delay)).await;

    let mut first = connect_tls(&sandbox).await;
    let started = Instant::now();
    assert_eq!(auth_plain(&mut first, "wrong-1").await.unwrap().code, 535);
    assert!(
        started.elapsed() >= delay,
        "a failure is answered after the delay"
    );
    let closing = auth_plain(&mut first, "wrong-2").await.unwrap();
    assert_eq!(closing.code, 421, "{closing:?}");
    assert!(first.closed().await);

    // The third failure from this address locks it: the right key is refused too.
    let mut second = connect_tls(&sandbox).await;
    assert_eq!(auth_plain(&mut second, "wrong-3").await.unwrap().code, 421);
    let mut third = connect_tls(&sandbox).await;
    let locked = auth_plain(&mut third, sandbox.api_key()).await.unwrap();
    assert_eq!(locked.code, 421, "{locked:?}");
    assert!(locked.text.contains("from this address"));
    sandbox.shutdown().await;
}

#[tokio::test]
async fn an_overlong_command_line_is_refused_and_closed_without_reading_it_all() {
    let sandbox = sandbox(SmtpConfig::default()).await;
    let mut client = connect(sandbox.smtp_addr().unwrap()).await;
    let long = vec![b'A'; 64 * 1024];
    let mut written = 0;
    // The server stops reading at 4 KiB: writing stops when the socket buffers are full.
    while written < 64 * 1024 * 1024 {
        match tokio::time::timeout(
            Duration::from_millis(500),
            client.io.get_mut().write_all(&long),
        )
        .await
        {
            Ok(Ok(())) => written += long.len(),
            _ => break,
        }
    }
    assert!(
        written < 64 * 1024 * 1024,
        "the server read a 64 MiB command line"
    );
    let reply = client.reply().await.unwrap();
    assert_eq!(reply.code, 500, "{reply:?}");
    assert!(reply.text.contains("Line too long"));
    sandbox.shutdown().await;
}

#[tokio::test]
async fn an_overlong_data_line_refuses_the_message_and_the_session_goes_on() {
    let sandbox = sandbox(SmtpConfig::default().max_message_bytes(1024 * 1024)).await;
    let mut client = logged_in(&sandbox).await;
    client.expect("MAIL FROM:<ada@example.com>", 250).await;
    client.expect("RCPT TO:<grace@example.com>", 250).await;
    client.expect("DATA", 354).await;
    let mut message = b"Subject: long\r\n\r\n".to_vec();
    message.extend(std::iter::repeat_n(b'x', 100 * 1024));
    message.extend_from_slice(b"\r\n.\r\n");
    client.send_raw(&message).await;
    let reply = client.reply().await.unwrap();
    assert_eq!(reply.code, 552, "{reply:?}");
    assert!(reply.text.contains("line too long"), "{reply:?}");
    client.expect("NOOP", 250).await;
    assert!(stored(&sandbox).await.is_empty());
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_declared_size_over_the_limit_and_a_full_store_are_refused_before_buffering() {
    let sandbox = sandbox(
        SmtpConfig::default()
            .max_message_bytes(1024 * 1024)
            .max_buffered_bytes(16 * 1024),
    )
    .await;
    let mut client = logged_in(&sandbox).await;
    client
        .expect("MAIL FROM:<ada@example.com> SIZE=2000000", 552)
        .await;
    client
        .expect("MAIL FROM:<ada@example.com> SIZE=1000", 250)
        .await;
    client.expect("RCPT TO:<grace@example.com>", 250).await;
    client.expect("DATA", 354).await;
    let mut message = b"Subject: big\r\n\r\n".to_vec();
    for _ in 0..400 {
        message.extend_from_slice(&[b'y'; 76]);
        message.extend_from_slice(b"\r\n");
    }
    message.extend_from_slice(b".\r\n");
    client.send_raw(&message).await;
    let reply = client.reply().await.unwrap();
    assert_eq!(reply.code, 452, "{reply:?}");
    assert!(reply.text.contains("Insufficient system storage"));
    sandbox.shutdown().await;
}
