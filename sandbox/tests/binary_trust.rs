//! The `tidings-sandbox` binary as a development server: its log on stderr (issue 28, item 15),
//! its `--data` directory (items 1–4). Each test runs the real binary on loopback.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod binary_support;

use binary_support::{call, start};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn the_binary_logs_its_start_and_each_refused_request_on_stderr_without_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("stderr.log");
    // RUST_LOG unset: the default level must still show the events a developer needs.
    let run = start(&["--email-key", "sk_test_never_logged"], &log, "", &[]);
    let emails = format!("{}/v1/emails", run.url("email"));
    let (status, _) = call(Method::GET, &emails, "sk_wrong_key_never_logged", None).await;
    assert_eq!(status, 401);
    let (status, _) = call(
        Method::POST,
        &emails,
        "sk_test_never_logged",
        Some(json!({"from": "ada@example.com", "to": []})),
    )
    .await;
    assert!((400..500).contains(&status), "{status}");
    let log = run.log.clone();
    run.stop();
    let text = std::fs::read_to_string(log).unwrap();
    assert!(text.contains("tidings-sandbox started"), "{text}");
    let refused: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("request refused"))
        .collect();
    assert_eq!(refused.len(), 2, "{text}");
    assert!(refused[0].contains("401"), "{text}");
    assert!(refused[1].contains("status=422"), "{text}");
    assert!(
        !text.contains('\u{1b}'),
        "no colour codes in a log that is not a terminal"
    );
    assert!(text.contains("stopped"), "{text}");
    assert!(
        !text.contains("never_logged"),
        "a key reached the log: {text}"
    );
}

fn sms(text: &str) -> serde_json::Value {
    json!({"channel": "sms", "message_type": "text", "from": "Acme", "to": "+447700900123", "text": text})
}

fn email(subject: &str) -> serde_json::Value {
    json!({"from": "ada@example.com", "to": ["grace@example.com"], "subject": subject, "text": "x"})
}

#[tokio::test]
async fn with_data_every_service_object_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let data = data.to_str().unwrap();
    let log = dir.path().join("first.log");
    let run = start(&["--data", data], &log, "", &[]);
    let (key, mkey) = (run.email_key(), run.messaging_key());
    let (e, m) = (run.url("email"), run.url("messaging"));
    let post = |url: String, key: String, body| async move {
        let (status, body) = call(Method::POST, &url, &key, Some(body)).await;
        assert!((200..300).contains(&status), "{url}: {status} {body}");
        body
    };
    let template = post(
        format!("{e}/v1/templates"),
        key.clone(),
        json!({"name": "welcome", "alias": "welcome", "subject": "Hi {{name}}", "text": "Hello {{name}}"}),
    )
    .await;
    let template_id = template["id"].as_str().unwrap().to_owned();
    post(
        format!("{e}/v1/templates/{template_id}/publish"),
        key.clone(),
        json!({}),
    )
    .await;
    let list = post(
        format!("{e}/v1/lists"),
        key.clone(),
        json!({"name": "beta"}),
    )
    .await;
    let list_id = list["id"].as_str().unwrap().to_owned();
    let contact = post(
        format!("{e}/v1/contacts"),
        key.clone(),
        json!({"email": "lin@example.com", "first_name": "Lin", "list_ids": [list_id]}),
    )
    .await;
    post(
        format!("{e}/v1/suppressions"),
        key.clone(),
        json!({"email": "gone@example.com"}),
    )
    .await;
    let hook = post(
        format!("{e}/v1/webhooks"),
        key.clone(),
        json!({"url": "http://127.0.0.1:9/hook", "events": ["email.delivered"]}),
    )
    .await;
    let sent = post(
        format!("{e}/v1/emails"),
        key.clone(),
        email("before restart"),
    )
    .await;
    let templated = post(
        format!("{e}/v1/emails"),
        key.clone(),
        json!({"from": "ada@example.com", "to": ["grace@example.com"],
               "template": {"alias": "welcome", "variables": {"name": "Ada"}}}),
    )
    .await;
    let message = post(format!("{m}/v1/messages"), mkey.clone(), sms("kept")).await;
    // Let the email reach `delivered` (its status must come back as it was).
    let email_url = format!("{e}/v1/emails/{}", sent["id"].as_str().unwrap());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let (_, body) = call(Method::GET, &email_url, &key, None).await;
        if body["status"] == "delivered" || std::time::Instant::now() > deadline {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    run.stop();

    let run = start(&["--data", data], &dir.path().join("second.log"), "", &[]);
    assert_eq!(run.email_key(), key);
    let e = run.url("email");
    let get = |path: String| {
        let (url, key) = (format!("{e}{path}"), key.clone());
        async move { call(Method::GET, &url, &key, None).await }
    };
    let (status, body) = get(format!("/v1/emails/{}", sent["id"].as_str().unwrap())).await;
    assert_eq!(
        (status, body["status"].as_str()),
        (200, Some("delivered")),
        "{body}"
    );
    let (status, body) = get(format!("/v1/emails/{}", templated["id"].as_str().unwrap())).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["subject"], "Hi Ada");
    let (status, body) = get("/v1/templates/welcome".into()).await;
    assert_eq!(
        (status, body["status"].as_str()),
        (200, Some("published")),
        "{body}"
    );
    let (status, body) = get(format!("/v1/contacts/{}", contact["id"].as_str().unwrap())).await;
    assert_eq!(
        (status, body["first_name"].as_str()),
        (200, Some("Lin")),
        "{body}"
    );
    let (status, body) = get(format!("/v1/lists/{list_id}")).await;
    assert_eq!(
        (status, body["contact_count"].as_i64()),
        (200, Some(1)),
        "{body}"
    );
    let (status, _) = get("/v1/suppressions/gone@example.com".into()).await;
    assert_eq!(status, 200);
    let (status, body) = get(format!("/v1/webhooks/{}", hook["id"].as_str().unwrap())).await;
    assert_eq!((status, &body["secret"]), (200, &hook["secret"]), "{body}");
    // A template made before the restart still sends.
    let (status, body) = call(
        Method::POST,
        &format!("{e}/v1/emails"),
        &key,
        Some(
            json!({"from": "ada@example.com", "to": ["grace@example.com"],
                    "template": {"alias": "welcome", "variables": {"name": "Bo"}}}),
        ),
    )
    .await;
    assert_eq!(status, 202, "{body}");
    let (status, body) = call(
        Method::GET,
        &format!(
            "{}/v1/messages/{}",
            run.url("messaging"),
            message["message_uuid"].as_str().unwrap()
        ),
        &mkey,
        None,
    )
    .await;
    assert_eq!(
        (status, body["text"].as_str()),
        (200, Some("kept")),
        "{body}"
    );
    run.stop();
}

#[test]
fn a_second_process_on_the_same_data_directory_refuses_to_start_naming_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let data = data.to_str().unwrap();
    let first = start(&["--data", data], &dir.path().join("first.log"), "", &[]);
    let second = std::process::Command::new(binary_support::exe())
        .args(["--data", data, "--json"])
        .output()
        .unwrap();
    assert!(!second.status.success());
    assert!(second.stdout.is_empty(), "the second printed no URLs");
    let stderr = String::from_utf8_lossy(&second.stderr);
    let pid = format!("pid {}", first.child.id());
    assert!(
        stderr.contains("in use by another tidings-sandbox"),
        "{stderr}"
    );
    assert!(stderr.contains(&pid), "{stderr}");
    first.stop();
    // Released on exit: a new process may take it.
    let third = start(&["--data", data], &dir.path().join("third.log"), "", &[]);
    third.stop();
}

/// Sends emails and messages from `workers` tasks until `stop_at` are acknowledged or
/// `planned` were attempted; the acknowledged ids (`e:` emails, `m:` messages).
async fn burst(
    run: &binary_support::Running,
    workers: usize,
    planned: usize,
    kill_at: usize,
) -> (Vec<String>, usize) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let acked = Arc::new(std::sync::Mutex::new(Vec::new()));
    let attempted = Arc::new(AtomicUsize::new(0));
    let client = reqwest::Client::new();
    let (e, m) = (run.url("email"), run.url("messaging"));
    let (key, mkey) = (run.email_key(), run.messaging_key());
    let mut tasks = Vec::new();
    for _ in 0..workers {
        let (acked, attempted, client) = (acked.clone(), attempted.clone(), client.clone());
        let (e, m, key, mkey) = (e.clone(), m.clone(), key.clone(), mkey.clone());
        tasks.push(tokio::spawn(async move {
            loop {
                let n = attempted.fetch_add(1, Ordering::SeqCst);
                if n >= planned {
                    return;
                }
                let (url, key, body) = if n % 2 == 0 {
                    (format!("{e}/v1/emails"), &key, email(&format!("burst {n}")))
                } else {
                    (
                        format!("{m}/v1/messages"),
                        &mkey,
                        sms(&format!("burst {n}")),
                    )
                };
                let Ok(response) = client.post(url).bearer_auth(key).json(&body).send().await
                else {
                    return; // the process is gone
                };
                if response.status().as_u16() != 202 {
                    return;
                }
                let Ok(body) = response.json::<serde_json::Value>().await else {
                    return;
                };
                let id = match body["id"].as_str() {
                    Some(id) => format!("e:{id}"),
                    None => format!("m:{}", body["message_uuid"].as_str().unwrap_or_default()),
                };
                acked.lock().unwrap().push(id);
            }
        }));
    }
    // Kill while the burst is in full flight.
    let pid = run.child.id();
    while acked.lock().unwrap().len() < kill_at {
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    let _ = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status();
    for task in tasks {
        let _ = task.await;
    }
    let ids = acked.lock().unwrap().clone();
    (ids, attempted.load(Ordering::SeqCst).min(planned))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn kill_9_in_the_middle_of_a_burst_loses_no_acknowledged_email_or_message() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let data = data.to_str().unwrap();
    let mut checked = 0;
    for round in 0..2 {
        let log = dir.path().join(format!("round{round}.log"));
        let mut run = start(&["--data", data, "--rate-limit", "off"], &log, "", &[]);
        let (acked, attempted) = burst(&run, 16, 4_000, 1_600).await;
        let _ = run.child.wait();
        assert!(attempted > acked.len(), "the kill came mid-burst");
        let run = start(
            &["--data", data, "--rate-limit", "off"],
            &dir.path().join(format!("check{round}.log")),
            "",
            &[],
        );
        let (e, m) = (run.url("email"), run.url("messaging"));
        let (key, mkey) = (run.email_key(), run.messaging_key());
        let client = reqwest::Client::new();
        let mut missing = Vec::new();
        for chunk in acked.chunks(64) {
            let checks = chunk.iter().map(|id| {
                let (url, key) = match id.split_once(':') {
                    Some(("e", id)) => (format!("{e}/v1/emails/{id}"), &key),
                    Some((_, id)) => (format!("{m}/v1/messages/{id}"), &mkey),
                    None => unreachable!(),
                };
                let client = client.clone();
                async move {
                    let status = client
                        .get(url)
                        .bearer_auth(key)
                        .send()
                        .await
                        .unwrap()
                        .status();
                    (id, status.as_u16())
                }
            });
            for (id, status) in futures_util::future::join_all(checks).await {
                if status != 200 {
                    missing.push(format!("{id} ({status})"));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "round {round}: {} of {} acknowledged sends lost: {:?}",
            missing.len(),
            acked.len(),
            &missing[..missing.len().min(10)]
        );
        checked += acked.len();
        run.stop();
    }
    assert!(checked >= 3_000, "{checked} acknowledged sends checked");
}

#[tokio::test]
async fn a_full_disk_answers_507_logs_it_and_keeps_every_acknowledged_email_and_message() {
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().join("data");
    let data = data_dir.to_str().unwrap();
    // The first run makes the database; the second runs with a file size limit just above it
    // (RLIMIT_FSIZE through `ulimit -f`, in 512-byte blocks; SIGXFSZ ignored, so a write past
    // it fails with EFBIG as on a full disk).
    start(&["--data", data], &dir.path().join("first.log"), "", &[]).stop();
    let size: u64 = std::fs::read_dir(&data_dir)
        .unwrap()
        .map(|f| f.unwrap().metadata().unwrap().len())
        .max()
        .unwrap();
    let blocks = (size + 192 * 1024) / 512;
    let shell = format!("trap '' XFSZ; ulimit -f {blocks};");
    let log = dir.path().join("full.log");
    let run = start(&["--data", data, "--rate-limit", "off"], &log, &shell, &[]);
    let (e, key) = (run.url("email"), run.email_key());
    let mut acked = Vec::new();
    let mut refused = 0;
    let text = "x".repeat(8 * 1024);
    for n in 0..400 {
        let body = json!({"from": "ada@example.com", "to": ["grace@example.com"],
                          "subject": format!("full {n}"), "text": text});
        let (status, body) = call(Method::POST, &format!("{e}/v1/emails"), &key, Some(body)).await;
        match status {
            202 => acked.push(body["id"].as_str().unwrap().to_owned()),
            507 => {
                assert_eq!(body["error"]["code"], "insufficient_storage", "{body}");
                refused += 1;
                if refused == 5 {
                    break;
                }
            }
            other => panic!("{other}: {body}"),
        }
    }
    assert!(
        !acked.is_empty() && refused == 5,
        "{} acked, {refused} refused",
        acked.len()
    );
    // A refused email is not listed either (never half a record).
    let (_, page) = call(Method::GET, &format!("{e}/v1/emails?limit=100"), &key, None).await;
    let listed = page["data"].as_array().unwrap().len();
    assert_eq!(listed, acked.len().min(100), "{page}");
    // The SMTP relay refuses with 452 the same way (and keeps nothing of the message).
    let relay = tidings_runtime::smtp::SmtpRelay::builder("localhost")
        .port(
            run.info["env"]["COMMS_EMAIL_SMTP_PORT"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap(),
        )
        .tls(tidings_runtime::smtp::SmtpTls::StartTls)
        .api_key(key.clone())
        // The first answer as it is (the relay retries a 4xx by default).
        .retry(tidings_runtime::RetryPolicy::none())
        .add_root_certificate_pem(
            std::fs::read(
                run.info["env"]["COMMS_EMAIL_SMTP_CA_FILE"]
                    .as_str()
                    .unwrap(),
            )
            .unwrap(),
        )
        .build()
        .unwrap();
    // (A checkpoint can make room again for a while: send until the relay is refused,
    // keeping what it acknowledged.)
    let mut refused = None;
    for n in 0..200 {
        let request =
            tidings::email::SendEmailRequest::new("ada@example.com", ["grace@example.com"])
                .subject(format!("full over SMTP {n}"))
                .text("y".repeat(8 * 1024));
        match relay.send(&request).await {
            Ok(receipt) => {
                let id = receipt.message.rsplit("queued as ").next().unwrap().trim();
                acked.push(id.to_owned());
            }
            Err(e) => {
                refused = Some(e.to_string());
                break;
            }
        }
    }
    let refused = refused.expect("the relay was refused once the disk was full");
    assert!(refused.contains("452"), "{refused}");
    // The messaging API is refused the same way, and keeps what it acknowledged.
    let (m, mkey) = (run.url("messaging"), run.messaging_key());
    let mut acked_messages = Vec::new();
    let mut refused_message = None;
    for n in 0..200 {
        let (status, body) = call(
            Method::POST,
            &format!("{m}/v1/messages"),
            &mkey,
            Some(sms(&format!("full {n} {}", "z".repeat(1000)))),
        )
        .await;
        match status {
            202 => acked_messages.push(body["message_uuid"].as_str().unwrap().to_owned()),
            507 => {
                refused_message = Some(body);
                break;
            }
            other => panic!("{other}: {body}"),
        }
    }
    let refused_message = refused_message.expect("messaging was refused once the disk was full");
    assert_eq!(
        refused_message["error"]["code"], "insufficient_storage",
        "{refused_message}"
    );
    let text = run.wait_log("cannot write to the data directory");
    assert!(
        text.contains("cannot write to the data directory"),
        "{text}"
    );
    assert!(
        text.contains("status=507"),
        "the refusals are logged: {text}"
    );
    if std::env::var_os("SHOW_LOG").is_some() {
        eprintln!("{text}");
    }
    run.stop();

    let run = start(&["--data", data], &dir.path().join("after.log"), "", &[]);
    let e = run.url("email");
    for id in &acked {
        let (status, _) = call(Method::GET, &format!("{e}/v1/emails/{id}"), &key, None).await;
        assert_eq!(status, 200, "acknowledged email {id} lost");
    }
    let m = run.url("messaging");
    for id in &acked_messages {
        let (status, _) = call(Method::GET, &format!("{m}/v1/messages/{id}"), &mkey, None).await;
        assert_eq!(status, 200, "acknowledged message {id} lost");
    }
    // The refused message is not there (never half a record).
    let (_, page) = call(
        Method::GET,
        &format!("{m}/v1/messages?limit=100"),
        &mkey,
        None,
    )
    .await;
    assert_eq!(
        page["data"].as_array().map(Vec::len),
        Some(acked_messages.len()),
        "{page}"
    );
    let (_, page) = call(Method::GET, &format!("{e}/v1/emails?limit=100"), &key, None).await;
    // Every acknowledged email is there and nothing else: a send's record and its rows are one
    // transaction, so a refused send left nothing behind.
    let listed = page["data"].as_array().unwrap().len();
    let expected = acked.len().min(100);
    assert_eq!(listed, expected, "{listed} listed, {expected} acknowledged");
    run.stop();
}

#[tokio::test]
async fn an_attachment_content_type_with_a_space_or_a_line_break_is_kept_escaped_never_half() {
    let sandbox = tidings_sandbox::Sandbox::start().await.unwrap();
    let (e, key) = (
        sandbox.email.base_url().to_owned(),
        sandbox.email.api_key().to_owned(),
    );
    let good = json!({"filename": "a.txt", "content": "aGVsbG8=", "content_type": "text/plain"});
    let bad_types = ["text plain", "text/plain\r\nX-Injected: 1", "text/plain\n"];
    for bad in bad_types {
        let body = json!({"from": "ada@example.com", "to": ["grace@example.com"], "subject": "att",
                          "text": "x", "attachments": [good.clone(),
                          {"filename": "b.txt", "content": "aGVsbG8=", "content_type": bad}]});
        let (status, body) = call(Method::POST, &format!("{e}/v1/emails"), &key, Some(body)).await;
        assert_eq!(status, 202, "{bad:?}: {body}");
    }
    // Every email is whole: its source, headers and both attachments; the odd content type is
    // in the source as application/octet-stream, never as an injected header.
    let kept = sandbox.inbox.emails().all();
    assert_eq!(kept.len(), bad_types.len());
    for email in &kept {
        assert_eq!(email.attachments.len(), 2, "both attachments kept");
        let raw = sandbox.inbox.raw_email(&email.id).unwrap();
        let raw = String::from_utf8_lossy(&raw);
        assert!(!raw.contains("X-Injected"), "{raw}");
        assert!(raw.contains("application/octet-stream"), "{raw}");
    }
    sandbox.shutdown().await;
}

/// Emails per second over REST from 16 clients, against the binary with `args`.
async fn http_rate(args: &[&str], log: &std::path::Path, total: usize) -> f64 {
    let run = start(args, log, "", &[]);
    let client = reqwest::Client::new();
    let (url, key) = (format!("{}/v1/emails", run.url("email")), run.email_key());
    let next = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let started = std::time::Instant::now();
    let tasks: Vec<_> = (0..16)
        .map(|_| {
            let (client, url, key, next) = (client.clone(), url.clone(), key.clone(), next.clone());
            tokio::spawn(async move {
                while next.fetch_add(1, std::sync::atomic::Ordering::SeqCst) < total {
                    let status = client
                        .post(&url)
                        .bearer_auth(&key)
                        .json(&email("rate"))
                        .send()
                        .await
                        .unwrap()
                        .status();
                    assert_eq!(status, 202);
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    let rate = total as f64 / started.elapsed().as_secs_f64();
    run.stop();
    rate
}

/// Durable ingestion against in-memory ingestion, same binary, same run:
/// `cargo test -p tidings-sandbox --test binary_trust -- --ignored --nocapture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run with --ignored --nocapture"]
async fn durable_http_ingestion_rate_against_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    // Emails per side and round (`DURABLE_EMAILS`, default 3,000: a release build sends
    // that in about a second, so give it more there).
    let total: usize = std::env::var("DURABLE_EMAILS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3_000);
    for round in 0..3 {
        // A fresh directory each round: both sides start empty.
        let data = dir.path().join(format!("data{round}"));
        let data = data.to_str().unwrap();
        let memory = http_rate(&["--rate-limit", "off"], &dir.path().join("m.log"), total).await;
        let durable = http_rate(
            &["--rate-limit", "off", "--data", data],
            &dir.path().join("d.log"),
            total,
        )
        .await;
        let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
        println!(
            "round {round}: in memory {memory:.0} emails/s, --data {durable:.0} emails/s, ratio {:.2} (load {})",
            durable / memory,
            load.trim()
        );
    }
}

#[tokio::test]
async fn the_binary_prints_the_smtp_settings_and_writes_a_certificate_an_app_can_trust() {
    use tidings_runtime::smtp::{SmtpRelay, SmtpTls};
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let run = start(
        &["--data", data.to_str().unwrap()],
        &dir.path().join("log"),
        "",
        &[],
    );
    let env = &run.info["env"];
    let var = |name: &str| {
        env[name]
            .as_str()
            .unwrap_or_else(|| panic!("{name} missing: {env}"))
            .to_owned()
    };
    assert_eq!(var("COMMS_EMAIL_SMTP_TLS"), "starttls");
    let ca_file = var("COMMS_EMAIL_SMTP_CA_FILE");
    assert!(
        ca_file.starts_with(data.to_str().unwrap()),
        "in --data: {ca_file}"
    );
    // An app outside the process: the printed settings and the file, no certificate check off,
    // read as `SmtpRelay::from_env` reads the environment.
    let relay =
        SmtpRelay::from_vars("COMMS_EMAIL", |name| env[name].as_str().map(str::to_owned)).unwrap();
    assert_eq!(relay.endpoint().2, SmtpTls::StartTls);
    // A CA file that is not there is named, never ignored.
    let err = SmtpRelay::from_vars("COMMS_EMAIL", |name| match name {
        "COMMS_EMAIL_SMTP_CA_FILE" => Some(dir.path().join("missing.pem").display().to_string()),
        _ => env[name].as_str().map(str::to_owned),
    })
    .unwrap_err();
    assert!(
        err.to_string().contains("COMMS_EMAIL_SMTP_CA_FILE"),
        "{err}"
    );
    let request = tidings::email::SendEmailRequest::new("ada@example.com", ["grace@example.com"])
        .subject("through the printed settings")
        .text("x");
    let receipt = relay.send(&request).await.unwrap();
    assert_eq!(receipt.code, 250, "{receipt:?}");
    run.stop();
    let help = std::process::Command::new(binary_support::exe())
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for needle in [
        "--rate-limit",
        "--allowed-host",
        "--retention-mib",
        "Failures on demand",
        "X-Sandbox-Fault",
    ] {
        assert!(help.contains(needle), "{needle} missing from --help");
    }
}

#[test]
fn without_data_the_certificate_goes_to_a_new_file_no_one_could_have_put_there() {
    let dir = tempfile::tempdir().unwrap();
    // Checks the file a run wrote, while it runs; its path.
    let ca_file = |run: &binary_support::Running, port: &str| {
        let path = std::path::PathBuf::from(
            run.info["env"]["COMMS_EMAIL_SMTP_CA_FILE"]
                .as_str()
                .unwrap(),
        );
        assert!(path.starts_with(std::env::temp_dir()), "{}", path.display());
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.starts_with(&format!("tidings-sandbox-smtp-{port}-")),
            "{name}"
        );
        let pem = std::fs::read_to_string(&path).unwrap();
        assert!(pem.starts_with("-----BEGIN CERTIFICATE-----"), "{pem}");
        path
    };
    // Two runs on the same SMTP port: each writes a file of its own, under a name that could
    // not be guessed (and so not be set up beforehand as a link or a file of someone else's).
    let first = start(&[], &dir.path().join("a.log"), "", &[]);
    let port = first.info["env"]["COMMS_EMAIL_SMTP_PORT"]
        .as_str()
        .unwrap()
        .to_owned();
    let a = ca_file(&first, &port);
    first.stop();
    assert!(!a.exists(), "removed when the sandbox stops");
    let second = start(&["--smtp-port", &port], &dir.path().join("b.log"), "", &[]);
    let b = ca_file(&second, &port);
    second.stop();
    assert_ne!(a, b);
}

#[tokio::test]
async fn x_sandbox_fault_makes_a_call_fail_the_way_it_asks_and_keeps_nothing() {
    let sandbox = tidings_sandbox::Sandbox::start().await.unwrap();
    let http = reqwest::Client::new();
    let (e, key) = (
        sandbox.email.base_url().to_owned(),
        sandbox.email.api_key().to_owned(),
    );
    let send = |fault: &str| {
        http.post(format!("{e}/v1/emails"))
            .bearer_auth(&key)
            .header("X-Sandbox-Fault", fault)
            .json(&email("fault"))
    };
    for (fault, status, retry_after) in [
        ("429", 429, Some("1")),
        ("500", 500, None),
        ("503", 503, Some("1")),
        ("bogus", 400, None),
    ] {
        let response = send(fault).send().await.unwrap();
        assert_eq!(response.status().as_u16(), status, "{fault}");
        assert_eq!(
            response
                .headers()
                .get("retry-after")
                .map(|v| v.to_str().unwrap()),
            retry_after,
            "{fault}"
        );
    }
    // `timeout`: no answer in time.
    let waited = send("timeout")
        .timeout(std::time::Duration::from_millis(300))
        .send()
        .await
        .unwrap_err();
    assert!(waited.is_timeout(), "{waited}");
    // The key is still checked first.
    let response = http
        .post(format!("{e}/v1/emails"))
        .bearer_auth("wrong")
        .header("X-Sandbox-Fault", "500")
        .json(&email("fault"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 401);
    // Messaging too.
    let response = http
        .post(format!("{}/v1/messages", sandbox.messaging.base_url()))
        .bearer_auth(sandbox.messaging.api_key())
        .header("X-Sandbox-Fault", "503")
        .json(&sms("fault"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 503);
    assert!(sandbox.inbox.emails().all().is_empty() && sandbox.inbox.messages().all().is_empty());
    sandbox.shutdown().await;
}

/// POST `body` to `url` with an `Idempotency-Key`: status, whether it was a replay, the body.
async fn post_with_key(
    url: &str,
    key: &str,
    idem: &str,
    body: &serde_json::Value,
) -> (u16, bool, serde_json::Value) {
    let response = reqwest::Client::new()
        .post(url)
        .bearer_auth(key)
        .header("Idempotency-Key", idem)
        .json(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let replayed = response.headers().get("idempotent-replayed").is_some();
    (status, replayed, response.json().await.unwrap())
}

#[tokio::test]
async fn with_data_an_idempotency_key_answered_before_kill_9_is_replayed_after_the_restart() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let data = data.to_str().unwrap();
    let mut run = start(&["--data", data], &dir.path().join("first.log"), "", &[]);
    let (url, key) = (format!("{}/v1/emails", run.url("email")), run.email_key());
    let (status, replayed, first) = post_with_key(&url, &key, "order-42", &email("once")).await;
    assert_eq!((status, replayed), (202, false), "{first}");
    let (_, replayed, again) = post_with_key(&url, &key, "order-42", &email("once")).await;
    assert!(
        replayed && again == first,
        "replayed before the restart: {again}"
    );
    let _ = run.child.kill();
    let _ = run.child.wait();

    let run = start(&["--data", data], &dir.path().join("second.log"), "", &[]);
    let url = format!("{}/v1/emails", run.url("email"));
    let key = run.email_key();
    let (status, replayed, after) = post_with_key(&url, &key, "order-42", &email("once")).await;
    assert_eq!((status, replayed), (202, true), "{after}");
    assert_eq!(after, first, "the same answer, the same email id");
    // Another body under the kept key is a reuse, refused; a new key sends a new email.
    let (status, _, reused) = post_with_key(&url, &key, "order-42", &email("other")).await;
    assert_eq!(status, 409, "{reused}");
    let (status, replayed, other) = post_with_key(&url, &key, "order-43", &email("once")).await;
    assert_eq!((status, replayed), (202, false), "{other}");
    assert_ne!(other["id"], first["id"]);
    let (status, list) = call(Method::GET, &format!("{url}?limit=100"), &key, None).await;
    assert_eq!(status, 200, "{list}");
    let sent = list["data"].as_array().unwrap();
    assert_eq!(sent.len(), 2, "one email per key: {list}");
    run.stop();
}

#[test]
fn the_inbox_stays_on_loopback_when_the_apis_listen_on_every_interface() {
    let dir = tempfile::tempdir().unwrap();
    let run = start(
        &["--host", "0.0.0.0", "--no-smtp"],
        &dir.path().join("a.log"),
        "",
        &[],
    );
    let inbox = run.info["inbox"].as_str().unwrap().to_owned();
    assert!(inbox.starts_with("http://127.0.0.1:"), "{inbox}");
    assert!(run.url("email").starts_with("http://0.0.0.0:"));
    let log = run.wait_log("other machines may reach");
    assert!(log.contains("the inbox stays on loopback"), "{log}");
    assert!(!log.contains("has no login"), "{log}");
    run.stop();
    // Asked for: served there, with a warning that it has no login.
    let run = start(
        &["--host", "0.0.0.0", "--ui-host", "0.0.0.0", "--no-smtp"],
        &dir.path().join("b.log"),
        "",
        &[],
    );
    let inbox = run.info["inbox"].as_str().unwrap().to_owned();
    assert!(inbox.starts_with("http://0.0.0.0:"), "{inbox}");
    let log = run.wait_log("has no login");
    assert!(log.contains("reads every captured email"), "{log}");
    run.stop();
}

/// `--rate-limit N/min` sets the email and messaging APIs' limit: past it a call answers 429
/// with `Retry-After` and the spec's error body, each service counting its own calls; a
/// malformed value stops the binary with a message naming what is wrong.
#[tokio::test]
async fn rate_limit_n_per_minute_answers_429_with_retry_after_past_n_per_service() {
    let dir = tempfile::tempdir().unwrap();
    let run = start(
        &["--rate-limit", "3/min"],
        &dir.path().join("r.log"),
        "",
        &[],
    );
    let http = reqwest::Client::new();
    for (url, key, body) in [
        (
            format!("{}/v1/emails", run.url("email")),
            run.email_key(),
            email("limited"),
        ),
        (
            format!("{}/v1/messages", run.url("messaging")),
            run.messaging_key(),
            sms("limited"),
        ),
    ] {
        let mut statuses = Vec::new();
        let mut refused = None;
        for _ in 0..4 {
            let answer = http
                .post(&url)
                .bearer_auth(&key)
                .json(&body)
                .send()
                .await
                .unwrap();
            statuses.push(answer.status().as_u16());
            if answer.status() == 429 {
                refused = Some(answer);
            }
        }
        assert_eq!(statuses, [202, 202, 202, 429], "{url}");
        let refused = refused.unwrap();
        let retry_after: u64 = refused.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((1..=60).contains(&retry_after), "{retry_after}");
        let body: serde_json::Value = refused.json().await.unwrap();
        assert!(body.to_string().contains("rate"), "{body}");
    }
    run.stop();
    for wrong in ["fast", "0/s", "5/hour"] {
        let out = std::process::Command::new(binary_support::exe())
            .args(["--rate-limit", wrong])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{wrong}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("--rate-limit"), "{wrong}: {stderr}");
    }
}
