//! The binary's `--spec`: a provider spec served with nothing compiled for it, its base URL and
//! credentials printed as `export` lines named by the spec's own variables, a spec that does
//! not check refused at start with every located problem, and with `--data` every resource it
//! acknowledged kept through `kill -9`.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Serves the spec `yaml` with `--spec` (rate limit off); its directory, the running sandbox and
/// the base URL printed in `base_env`.
fn serve_spec(yaml: &str, base_env: &str) -> (tempfile::TempDir, Running, String) {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("served.yaml");
    std::fs::write(&spec, yaml).unwrap();
    let (running, exports) = start(
        &["--rate-limit", "off", "--spec", spec.to_str().unwrap()],
        base_env,
    );
    let base = env(&exports, base_env);
    (dir, running, base.to_owned())
}

fn providers(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/providers")
        .join(name)
}

/// Starts the binary and reads its `export` lines until `last` is printed.
fn start(args: &[&str], last: &str) -> (Running, Vec<(String, String)>) {
    start_in("", args, last)
}

/// [`start`] through `sh -c` with `shell` run first (a `ulimit`), when not empty.
fn start_in(shell: &str, args: &[&str], last: &str) -> (Running, Vec<(String, String)>) {
    let binary = env!("CARGO_BIN_EXE_tidings-sandbox");
    let mut command = if shell.is_empty() {
        Command::new(binary)
    } else {
        let mut sh = Command::new("sh");
        sh.arg("-c")
            .arg(format!("{shell} exec \"$0\" \"$@\""))
            .arg(binary);
        sh
    };
    let mut child = command
        .args(["--quiet", "--no-ui", "--no-smtp"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let running = Running(child);
    let mut exports = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        let (name, value) = line
            .strip_prefix("export ")
            .and_then(|l| l.split_once('='))
            .unwrap_or_else(|| panic!("not an export line: {line}"));
        exports.push((name.to_owned(), value.to_owned()));
        if name == last {
            return (running, exports);
        }
    }
    panic!("the sandbox ended before printing {last}: {exports:?}");
}

fn env<'e>(exports: &'e [(String, String)], name: &str) -> &'e str {
    &exports.iter().find(|(n, _)| n == name).unwrap().1
}

/// Sends `request` and reads its answer's status and JSON body (`null` when it is none).
async fn send(request: reqwest::RequestBuilder) -> (reqwest::StatusCode, serde_json::Value) {
    let answer = request.send().await.unwrap();
    let status = answer.status();
    let text = answer.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or_default())
}

#[tokio::test]
async fn a_provider_spec_is_served_with_its_own_variables_and_auth() {
    let spec = providers("twilio.yaml");
    let (_running, exports) = start(&["--spec", spec.to_str().unwrap()], "TWILIO_AUTH_TOKEN");
    let base = env(&exports, "TWILIO_BASE_URL");
    let (sid, token) = (
        env(&exports, "TWILIO_ACCOUNT_SID"),
        env(&exports, "TWILIO_AUTH_TOKEN"),
    );
    assert!(base.starts_with("http://127.0.0.1:"), "{base}");
    let http = reqwest::Client::new();
    let url = format!("{base}/2010-04-01/Accounts/{sid}/Messages.json");
    let created = http
        .post(&url)
        .basic_auth(sid, Some(token))
        .form(&[
            ("To", "+15558675310"),
            ("From", "+15017122661"),
            ("Body", "hi"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let message: serde_json::Value = created.json().await.unwrap();
    assert_eq!(message["to"], "+15558675310", "{message}");

    // The declared auth (Basic with the account SID and token) is enforced.
    let refused = http
        .post(&url)
        .basic_auth(sid, Some("wrong"))
        .form(&[("To", "+15558675310")])
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
    // A method the path does not have.
    let wrong_method = http
        .put(&url)
        .basic_auth(sid, Some(token))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_method.status(), 405);
    assert_eq!(wrong_method.headers()["allow"], "POST, GET");
}

#[test]
fn a_spec_that_does_not_check_is_refused_with_every_located_problem() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.yaml");
    let mut file = std::fs::File::create(&path).unwrap();
    file.write_all(
        b"service:\n  name: broken\n  title: Broken\n  summary: A spec with a typo\n  \
          base_url: { env: BROKEN_BASE_URL }\ncredentials:\n  api_key: { env: BROKEN_API_KEY }\n\
          auth:\n  - { name: bearer, kind: bearer, credential: api_key }\noperations:\n  \
          get_thing:\n    method: GET\n    path: /things/{id}\n    \
          path_params: { id: { type: string } }\n    response: Thnig\n",
    )
    .unwrap();
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_tidings-sandbox"))
        .args(["--quiet", "--no-ui", "--no-smtp", "--spec"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(60));
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("broken.yaml:"), "located: {stderr}");
    assert!(stderr.contains("Thnig"), "names the unknown type: {stderr}");
}

/// A small spec whose every operation is served by the resource store.
const NOTES: &str = r#"
service:
  name: notes
  title: Notes API
  summary: Short notes
  base_url: { env: NOTES_BASE_URL }
credentials:
  api_key: { env: NOTES_API_KEY }
auth:
  - { name: bearer, kind: bearer, credential: api_key }
pagination:
  limit_param: limit
  after_param: after
  items_field: data
  has_more_field: has_more
  cursor_field: id
types:
  Note:
    fields:
      id: { type: string, required: true }
      text: { type: string, required: true }
      n: { type: integer }
  NewNote:
    fields:
      text: { type: string, required: true }
      n: { type: integer }
operations:
  create_note:
    method: POST
    path: /v1/notes
    body: NewNote
    response: Note
    status: 201
  list_notes:
    method: GET
    path: /v1/notes
    query:
      limit: { type: integer }
      after: { type: string }
    response: page<Note>
  get_note:
    method: GET
    path: /v1/notes/{id}
    path_params: { id: { type: string } }
    response: Note
  delete_note:
    method: DELETE
    path: /v1/notes/{id}
    path_params: { id: { type: string } }
    response: Note
"#;

/// Every note the served spec lists, following its pages.
async fn all_notes(http: &reqwest::Client, base: &str, key: &str) -> Vec<serde_json::Value> {
    let mut notes = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let mut url = format!("{base}/v1/notes?limit=100");
        if let Some(after) = &after {
            url.push_str(&format!("&after={after}"));
        }
        let page: serde_json::Value = http
            .get(&url)
            .bearer_auth(key)
            .send()
            .await
            .unwrap()
            .error_for_status()
            .unwrap()
            .json()
            .await
            .unwrap();
        let items = page["data"].as_array().unwrap();
        notes.extend(items.iter().cloned());
        if page["has_more"] != true || items.is_empty() {
            return notes;
        }
        after = Some(items.last().unwrap()["id"].as_str().unwrap().to_owned());
    }
}

#[tokio::test]
async fn with_data_a_served_specs_acknowledged_resources_survive_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("notes.yaml");
    std::fs::write(&spec, NOTES).unwrap();
    let data = dir.path().join("data");
    let args = [
        "--data",
        data.to_str().unwrap(),
        "--rate-limit",
        "off",
        "--spec",
        spec.to_str().unwrap(),
    ];
    let http = reqwest::Client::new();
    let mut acknowledged: Vec<(String, String)> = Vec::new();
    let mut deleted = Vec::new();
    let mut first_key = String::new();
    for round in 0..2 {
        let (mut running, exports) = start(&args, "NOTES_API_KEY");
        let (base, key) = (
            env(&exports, "NOTES_BASE_URL"),
            env(&exports, "NOTES_API_KEY"),
        );
        if round == 0 {
            first_key = key.to_owned();
        } else {
            assert_eq!(key, first_key, "the spec's credentials are kept in --data");
            // Every note acknowledged before the kill: get and list.
            let listed = all_notes(&http, base, key).await;
            let listed: Vec<(String, String)> = listed
                .iter()
                .map(|n| {
                    (
                        n["id"].as_str().unwrap().to_owned(),
                        n["text"].as_str().unwrap().to_owned(),
                    )
                })
                .collect();
            assert_kept(&listed, &acknowledged, &deleted);
            for (id, text) in &acknowledged {
                let got = http
                    .get(format!("{base}/v1/notes/{id}"))
                    .bearer_auth(key)
                    .send()
                    .await
                    .unwrap();
                assert_eq!(got.status(), 200, "{id}");
                let got: serde_json::Value = got.json().await.unwrap();
                assert_eq!(got["text"], text.as_str());
            }
            for id in &deleted {
                let gone = http
                    .get(format!("{base}/v1/notes/{id}"))
                    .bearer_auth(key)
                    .send()
                    .await
                    .unwrap();
                assert_eq!(gone.status(), 404, "deleted {id} stays deleted");
            }
        }
        // 8 clients creating at once; the process is killed in the middle of the burst.
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let mut clients = Vec::new();
        for c in 0..8 {
            let (http, tx) = (http.clone(), tx.clone());
            let (base, key) = (base.to_owned(), key.to_owned());
            clients.push(tokio::spawn(async move {
                for i in 0..200 {
                    let text = format!("round {round} client {c} note {i}");
                    let Ok(response) = http
                        .post(format!("{base}/v1/notes"))
                        .bearer_auth(&key)
                        .json(&serde_json::json!({ "text": text, "n": i }))
                        .send()
                        .await
                    else {
                        return; // killed
                    };
                    if response.status() != 201 {
                        return;
                    }
                    let Ok(note) = response.json::<serde_json::Value>().await else {
                        return;
                    };
                    let _ = tx.send((note["id"].as_str().unwrap().to_owned(), text));
                }
            }));
        }
        drop(tx);
        let mut this_round = 0;
        while let Some(note) = rx.recv().await {
            acknowledged.push(note);
            this_round += 1;
            if this_round == 300 {
                // One delete, acknowledged, then kill -9 while the others still create.
                let (id, _) = acknowledged.remove(0);
                let response = http
                    .delete(format!("{base}/v1/notes/{id}"))
                    .bearer_auth(key)
                    .send()
                    .await
                    .unwrap();
                assert_eq!(response.status(), 200);
                deleted.push(id);
                running.0.kill().unwrap(); // SIGKILL
                let _ = running.0.wait();
            }
        }
        for client in clients {
            client.await.unwrap();
        }
        assert!(
            this_round >= 300,
            "round {round}: {this_round} acknowledged"
        );
        // Creation order is what the server acknowledged in: ids grow.
        acknowledged.sort_by(|a, b| a.0.cmp(&b.0));
    }
    let ids: std::collections::HashSet<&String> = acknowledged.iter().map(|(id, _)| id).collect();
    assert_eq!(ids.len(), acknowledged.len(), "no id made twice");
    assert!(
        acknowledged.len() >= 600 - 2,
        "{} acknowledged",
        acknowledged.len()
    );
    // A third start lists both rounds' notes.
    let (_running, exports) = start(&args, "NOTES_API_KEY");
    let listed = all_notes(
        &http,
        env(&exports, "NOTES_BASE_URL"),
        env(&exports, "NOTES_API_KEY"),
    )
    .await;
    let listed: Vec<(String, String)> = listed
        .iter()
        .map(|n| {
            (
                n["id"].as_str().unwrap().to_owned(),
                n["text"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_kept(&listed, &acknowledged, &deleted);
}

/// Every acknowledged note is listed with its text, in creation order (ids grow), and no
/// deleted one is. The list may hold a few more: created when the process was killed, before
/// their answer left (one per client at most).
fn assert_kept(listed: &[(String, String)], acknowledged: &[(String, String)], deleted: &[String]) {
    assert!(
        listed.windows(2).all(|w| w[0].0 < w[1].0),
        "listed in creation order"
    );
    let by_id: std::collections::HashMap<&str, &str> = listed
        .iter()
        .map(|(id, text)| (id.as_str(), text.as_str()))
        .collect();
    let lost: Vec<&(String, String)> = acknowledged
        .iter()
        .filter(|(id, text)| by_id.get(id.as_str()) != Some(&text.as_str()))
        .collect();
    assert!(
        lost.is_empty(),
        "{} acknowledged notes lost, the first: {:?}",
        lost.len(),
        &lost[..lost.len().min(5)]
    );
    for id in deleted {
        assert!(!by_id.contains_key(id.as_str()), "deleted {id} is listed");
    }
    let extra = listed.len() - acknowledged.len();
    assert!(
        extra <= 16,
        "{extra} notes listed that were never acknowledged"
    );
    eprintln!(
        "kept: {} acknowledged, {extra} more committed before the kill",
        acknowledged.len()
    );
}

/// The largest file under `dir`, in bytes.
fn largest_file(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|f| {
            let f = f.unwrap();
            if f.file_type().unwrap().is_dir() {
                largest_file(&f.path())
            } else {
                f.metadata().unwrap().len()
            }
        })
        .max()
        .unwrap_or(0)
}

#[tokio::test]
async fn with_data_a_full_disk_answers_507_in_the_error_shape_and_keeps_only_what_was_acknowledged()
{
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("notes.yaml");
    std::fs::write(&spec, NOTES).unwrap();
    let data = dir.path().join("data");
    let args = [
        "--data",
        data.to_str().unwrap(),
        "--rate-limit",
        "off",
        "--spec",
        spec.to_str().unwrap(),
    ];
    // The first run makes the files; the second runs with a file size limit a little above
    // the largest (RLIMIT_FSIZE through `ulimit -f`, in 512-byte blocks; SIGXFSZ ignored, so
    // a write past it fails with EFBIG as on a full disk).
    drop(start(&args, "NOTES_API_KEY"));
    let blocks = (largest_file(&data) + 128 * 1024) / 512;
    let shell = format!("trap '' XFSZ; ulimit -f {blocks};");
    let http = reqwest::Client::new();
    let mut acknowledged = Vec::new();
    let mut refused = 0;
    {
        let (_running, exports) = start_in(&shell, &args, "NOTES_API_KEY");
        let (base, key) = (
            env(&exports, "NOTES_BASE_URL"),
            env(&exports, "NOTES_API_KEY"),
        );
        let text = "x".repeat(8 * 1024);
        for n in 0..200 {
            let response = http
                .post(format!("{base}/v1/notes"))
                .bearer_auth(key)
                .json(&serde_json::json!({ "text": format!("{n} {text}") }))
                .send()
                .await
                .unwrap();
            let status = response.status().as_u16();
            let body: serde_json::Value = response.json().await.unwrap();
            match status {
                201 => acknowledged.push(body["id"].as_str().unwrap().to_owned()),
                507 => {
                    assert_eq!(body["error"]["code"], "insufficient_storage", "{body}");
                    let message = body["error"]["message"].as_str().unwrap();
                    assert!(message.contains("nothing was kept"), "{message}");
                    refused += 1;
                    if refused == 5 {
                        break;
                    }
                }
                other => panic!("{other}: {body}"),
            }
        }
        assert!(
            !acknowledged.is_empty() && refused == 5,
            "{} acknowledged, {refused} refused",
            acknowledged.len()
        );
        // Memory unchanged by the refused ones: the list is what was acknowledged.
        let listed: Vec<String> = all_notes(&http, base, key)
            .await
            .iter()
            .map(|n| n["id"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(listed, acknowledged);
    }
    // Restarted without the limit: exactly what was acknowledged, and new ids go on.
    let (_running, exports) = start(&args, "NOTES_API_KEY");
    let (base, key) = (
        env(&exports, "NOTES_BASE_URL"),
        env(&exports, "NOTES_API_KEY"),
    );
    let listed: Vec<String> = all_notes(&http, base, key)
        .await
        .iter()
        .map(|n| n["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(listed, acknowledged);
    let created: serde_json::Value = http
        .post(format!("{base}/v1/notes"))
        .bearer_auth(key)
        .json(&serde_json::json!({ "text": "after" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap().to_owned();
    assert!(!acknowledged.contains(&id), "{id} is new");
    eprintln!(
        "full disk: {} acknowledged, {refused} refused (limit {blocks} blocks)",
        acknowledged.len()
    );
}

const OPEN_NOTES: &str = r#"
service: { name: notes, title: Notes, summary: Notes, source: assumed, base_url: { default: "http://localhost:1", env: NOTES_BASE_URL, source: assumed } }
operations:
  create_note: { method: POST, path: "/v1/notes", body: Note, response: Note, source: assumed }
  get_note: { method: GET, path: "/v1/notes/{note}", path_params: { note: { type: string } }, response: Note, source: assumed }
  delete_note: { method: DELETE, path: "/v1/notes/{note}", path_params: { note: { type: string } }, source: assumed }
types:
  Note: { source: assumed, fields: { id: { type: string }, text: { type: string } } }
"#;

/// A spec that declares no auth scheme is served open: its calls take no credential (and a
/// stray one is ignored), as its generated client sends none.
#[tokio::test]
async fn a_spec_without_auth_is_served_without_a_credential() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("notes.yaml");
    std::fs::write(&spec, OPEN_NOTES).unwrap();
    let (_running, exports) = start(
        &["--rate-limit", "off", "--spec", spec.to_str().unwrap()],
        "NOTES_BASE_URL",
    );
    let base = &exports
        .iter()
        .find(|(name, _)| name == "NOTES_BASE_URL")
        .unwrap()
        .1;
    assert!(
        !exports
            .iter()
            .any(|(name, _)| name.starts_with("NOTES_") && name != "NOTES_BASE_URL"),
        "no credential printed: {exports:?}"
    );
    let http = reqwest::Client::new();
    let created = http
        .post(format!("{base}/v1/notes"))
        .json(&serde_json::json!({"text": "open"}))
        .send()
        .await
        .unwrap();
    assert!(created.status().is_success(), "{:?}", created.text().await);
    let note: serde_json::Value = created.json().await.unwrap();
    let id = note["id"].as_str().unwrap();
    let got: serde_json::Value = http
        .get(format!("{base}/v1/notes/{id}"))
        .bearer_auth("anything")
        .send()
        .await
        .unwrap()
        .error_for_status()
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(got["text"], "open");
    let deleted = http
        .delete(format!("{base}/v1/notes/{id}"))
        .send()
        .await
        .unwrap();
    assert!(deleted.status().is_success(), "{}", deleted.status());
}

/// Twilio's imported document bounds the account SID path parameter (34 characters) and every
/// SID: the credential made at start and the ids the store makes fit them, so the SID printed
/// works in the path and a created message can be read back and deleted by its `sid`. (Made
/// credentials of 41 characters were refused by the served spec's own path check.)
#[tokio::test]
async fn an_imported_specs_made_credentials_and_ids_fit_the_lengths_and_patterns_it_declares() {
    let spec = providers("imported/twilio_imported.yaml");
    let (_running, exports) = start(
        &["--spec", spec.to_str().unwrap()],
        "COMMS_TWILIO_IMPORTED_AUTH_TOKEN",
    );
    let base = env(&exports, "COMMS_TWILIO_IMPORTED_BASE_URL");
    let (sid, token) = (
        env(&exports, "COMMS_TWILIO_IMPORTED_ACCOUNT_SID"),
        env(&exports, "COMMS_TWILIO_IMPORTED_AUTH_TOKEN"),
    );
    // The document's `^AC[0-9a-fA-F]{32}$`.
    let hex = |t: &str| t.len() == 32 && t.chars().all(|c| c.is_ascii_hexdigit());
    assert!(sid.starts_with("AC") && hex(&sid[2..]), "{sid}");
    let http = reqwest::Client::new();
    let messages = format!("{base}/2010-04-01/Accounts/{sid}/Messages");
    let created = http
        .post(format!("{messages}.json"))
        .basic_auth(sid, Some(token))
        .form(&[
            ("To", "+15558675310"),
            ("From", "+15017122661"),
            ("Body", "hi"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201, "{:?}", created.text().await);
    let message: serde_json::Value = created.json().await.unwrap();
    let message_sid = message["sid"].as_str().unwrap();
    // `^(SM|MM)[0-9a-fA-F]{32}$`.
    assert!(
        message_sid.starts_with("SM") && hex(&message_sid[2..]),
        "{message}"
    );
    // A SID of the right length that breaks the pattern names nothing (404, as Twilio
    // answers), saying why.
    let wrong = format!("XX{}", &message_sid[2..]);
    let refused = http
        .get(format!("{messages}/{wrong}.json"))
        .basic_auth(sid, Some(token))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 404);
    let why = refused.text().await.unwrap();
    assert!(
        why.contains("must match the pattern `^(SM|MM)[0-9a-fA-F]{32}$`"),
        "{why}"
    );
    let got = http
        .get(format!("{messages}/{message_sid}.json"))
        .basic_auth(sid, Some(token))
        .send()
        .await
        .unwrap();
    assert_eq!(got.status(), 200, "{:?}", got.text().await);
    let got: serde_json::Value = got.json().await.unwrap();
    assert_eq!(got["body"], "hi");
    let deleted = http
        .delete(format!("{messages}/{message_sid}.json"))
        .basic_auth(sid, Some(token))
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 204);
    // Nothing is sent, so no media type is named (it said `application/octet-stream`).
    assert_eq!(deleted.headers().get("content-type"), None);
}

/// Sub-accounts the way Vonage's document shapes them: nested under the primary account's key
/// (`/{api_key}/subaccounts`), each keyed by its own `api_key` (read by `{subaccount_key}`, no
/// field named like an id), and listed in a HAL envelope (`_embedded.subaccounts`) with no
/// pagination.
const SUBACCOUNTS: &str = r#"
service: { name: subs, title: Subs, summary: Subs, source: assumed, base_url: { default: "http://localhost:1", env: SUBS_BASE_URL, source: assumed } }
operations:
  create_subaccount: { method: POST, path: "/{api_key}/subaccounts", path_params: { api_key: { type: string } }, body: NewSubaccount, response: Subaccount, source: assumed }
  list_subaccounts: { method: GET, path: "/{api_key}/subaccounts", path_params: { api_key: { type: string } }, response: Subaccounts, source: assumed }
  get_subaccount: { method: GET, path: "/{api_key}/subaccounts/{subaccount_key}", path_params: { api_key: { type: string }, subaccount_key: { type: string } }, response: Subaccount, source: assumed }
  modify_subaccount: { method: PATCH, path: "/{api_key}/subaccounts/{subaccount_key}", path_params: { api_key: { type: string }, subaccount_key: { type: string } }, body: SubaccountChange, response: Subaccount, source: assumed }
types:
  NewSubaccount: { source: assumed, fields: { name: { type: string, required: true } } }
  SubaccountChange: { source: assumed, fields: { suspended: { type: boolean } } }
  Subaccount: { source: assumed, fields: { api_key: { type: string }, primary_account_api_key: { type: string }, name: { type: string }, suspended: { type: boolean } } }
  Subaccounts: { source: assumed, fields: { _embedded: { type: SubaccountsEmbedded } } }
  SubaccountsEmbedded: { source: assumed, fields: { primary_account: { type: Subaccount }, subaccounts: { type: "list<Subaccount>" } } }
"#;

/// An item keyed by a field not named like an id (`api_key`, read back by `{subaccount_key}`)
/// gets a fresh key there, not its parent's from the path, and a list inside an envelope's
/// object field (`_embedded.subaccounts`) lists what was created under that parent only. (The
/// store made an `id` field, copied the primary key into `api_key`, and listed `{}`.)
#[tokio::test]
async fn items_keyed_by_their_own_key_and_listed_in_a_hal_envelope_are_served() {
    let (_dir, _running, base) = serve_spec(SUBACCOUNTS, "SUBS_BASE_URL");
    let http = reqwest::Client::new();
    let created = http
        .post(format!("{base}/primary1/subaccounts"))
        .json(&serde_json::json!({"name": "Sub one"}))
        .send()
        .await
        .unwrap();
    assert!(created.status().is_success(), "{:?}", created.text().await);
    let created: serde_json::Value = created.json().await.unwrap();
    let key = created["api_key"].as_str().unwrap().to_owned();
    assert_ne!(key, "primary1", "{created}");
    assert!(created.get("id").is_none(), "{created}");
    let changed = http
        .patch(format!("{base}/primary1/subaccounts/{key}"))
        .json(&serde_json::json!({"suspended": true}))
        .send()
        .await
        .unwrap();
    assert!(changed.status().is_success(), "{}", changed.status());
    let (_, got) = send(http.get(format!("{base}/primary1/subaccounts/{key}"))).await;
    assert_eq!(
        (&got["name"], &got["suspended"]),
        (&"Sub one".into(), &true.into())
    );
    let (_, listed) = send(http.get(format!("{base}/primary1/subaccounts"))).await;
    let items = listed["_embedded"]["subaccounts"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{listed}");
    assert_eq!(items[0]["api_key"], key.as_str());
    let (_, other) = send(http.get(format!("{base}/other/subaccounts"))).await;
    assert_eq!(other["_embedded"]["subaccounts"], serde_json::json!([]));
}

/// Answers that wrap the item, as ClickSend's and Bandwidth's documents shape them: a create
/// answering `{"http_code": .., "response_msg": .., "data": {"list_id": ..}}` (an integer id
/// not named `id`) and listing in `{"data": {"data": [..], "links": [..], ..}}`; and one
/// answering `{"links": [..], "data": {"endpointId": ..}, "errors": [..]}`, listing
/// `{"links", "data": [..], "errors"}` whose `errors` items have an `id` too.
const WRAPPED: &str = r#"
service: { name: wraps, title: Wraps, summary: Wraps, source: assumed, base_url: { default: "http://localhost:1", env: WRAPS_BASE_URL, source: assumed } }
operations:
  create_list: { method: POST, path: "/v3/lists", body: NewList, response: ListAnswer, source: assumed }
  view_lists: { method: GET, path: "/v3/lists", response: ListsAnswer, source: assumed }
  view_list: { method: GET, path: "/v3/lists/{list_id}", path_params: { list_id: { type: integer } }, response: ListAnswer, source: assumed }
  create_endpoint: { method: POST, path: "/endpoints", body: NewEndpoint, response: EndpointAnswer, status: 201, source: assumed }
  list_endpoints: { method: GET, path: "/endpoints", response: EndpointsAnswer, source: assumed }
  get_endpoint: { method: GET, path: "/endpoints/{endpoint_id}", path_params: { endpoint_id: { type: string } }, response: EndpointAnswer, source: assumed }
types:
  NewList: { source: assumed, fields: { list_name: { type: string, required: true } } }
  ContactList: { source: assumed, fields: { list_id: { type: integer }, list_name: { type: string } } }
  ListAnswer: { source: assumed, fields: { http_code: { type: integer }, response_msg: { type: string }, data: { type: ContactList } } }
  ListsPage: { source: assumed, fields: { total: { type: integer }, data: { type: "list<ContactList>" }, links: { type: "list<PageLink>" } } }
  PageLink: { source: assumed, fields: { url: { type: string }, label: { type: string } } }
  ListsAnswer: { source: assumed, fields: { response_msg: { type: string }, data: { type: ListsPage } } }
  NewEndpoint: { source: assumed, fields: { kind: { type: string, required: true }, method: { type: Method } } }
  Method: { source: assumed, values: [GET, POST] }
  Endpoint: { source: assumed, fields: { endpointId: { type: string, required: true }, kind: { type: string, required: true }, method: { type: Method, default: POST } } }
  Problem: { source: assumed, fields: { id: { type: string }, description: { type: string, required: true } } }
  EndpointAnswer: { source: assumed, fields: { links: { type: "list<PageLink>", required: true }, data: { type: Endpoint, required: true }, errors: { type: "list<Problem>", required: true } } }
  EndpointsAnswer: { source: assumed, fields: { links: { type: "list<PageLink>", required: true }, data: { type: "list<Endpoint>", required: true }, errors: { type: "list<Problem>", required: true } } }
"#;

/// An item an answer wraps is created, read back by its own id (an integer `list_id`, an
/// `endpointId`) and listed where the envelope keeps its items. (The store answered the
/// literal `"endpointId"`, gave ClickSend's lists an `id` field and `list_id: 0`, and listed
/// `{}` and `[]`.)
#[tokio::test]
async fn items_an_answer_wraps_are_created_read_back_and_listed_in_their_envelope() {
    let (_dir, _running, base) = serve_spec(WRAPPED, "WRAPS_BASE_URL");
    let http = reqwest::Client::new();
    let json = |r: reqwest::Response| async move {
        assert!(r.status().is_success(), "{}", r.status());
        r.json::<serde_json::Value>().await.unwrap()
    };
    let created = json(
        http.post(format!("{base}/v3/lists"))
            .json(&serde_json::json!({"list_name": "Friends"}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    let list_id = created["data"]["list_id"].as_i64().unwrap();
    assert!(list_id > 0, "{created}");
    assert!(created["data"].get("id").is_none(), "{created}");
    let got = json(
        http.get(format!("{base}/v3/lists/{list_id}"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(got["data"]["list_name"], "Friends");
    let lists = json(http.get(format!("{base}/v3/lists")).send().await.unwrap()).await;
    assert_eq!(lists["data"]["data"][0]["list_id"], list_id, "{lists}");

    let endpoint = json(
        http.post(format!("{base}/endpoints"))
            .json(&serde_json::json!({"kind": "webrtc"}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    let id = endpoint["data"]["endpointId"].as_str().unwrap().to_owned();
    assert_ne!(id, "endpointId", "{endpoint}");
    let got = json(
        http.get(format!("{base}/endpoints/{id}"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(got["data"]["kind"], "webrtc");
    // Left out of the create: what the service takes then (`default: POST`), not the first
    // of the values.
    assert_eq!(got["data"]["method"], "POST", "{got}");
    let listed = json(http.get(format!("{base}/endpoints")).send().await.unwrap()).await;
    let items = listed["data"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{listed}");
    assert_eq!(items[0]["endpointId"], id.as_str());
}

/// Files sent as they are, as Bandwidth's media API takes them: `PUT` the bytes, `GET` them back.
const FILES: &str = r#"
service: { name: files, title: Files, summary: Files, source: assumed, base_url: { default: "http://localhost:1", env: FILES_BASE_URL, source: assumed } }
operations:
  upload_media: { method: PUT, path: "/media/{name}", path_params: { name: { type: string } }, body: bytes, body_encoding: binary, body_media: [image/png, application/pdf], source: assumed }
  get_media: { method: GET, path: "/media/{name}", path_params: { name: { type: string } }, response: bytes, source: assumed }
  list_media: { method: GET, path: "/media", response: "list<Media>", source: assumed }
types:
  Media: { source: assumed, fields: { name: { type: string } } }
"#;

/// An uploaded file is kept and answered back byte for byte with its media type, and a list
/// shows the item without the bytes. (The upload answered 204 and the file came back empty.)
#[tokio::test]
async fn a_file_sent_as_it_is_is_kept_and_answered_back_as_it_came() {
    let (_dir, _running, base) = serve_spec(FILES, "FILES_BASE_URL");
    let http = reqwest::Client::new();
    // Every byte value, and a few past a text encoding's comfort.
    let file: Vec<u8> = (0..=255u8).chain([0, 0xff, 0xfe]).collect();
    let put = http
        .put(format!("{base}/media/pic.png"))
        .header("content-type", "image/png")
        .body(file.clone())
        .send()
        .await
        .unwrap();
    assert!(put.status().is_success(), "{:?}", put.text().await);
    let got = http
        .get(format!("{base}/media/pic.png"))
        .send()
        .await
        .unwrap();
    assert_eq!(got.status(), 200);
    assert_eq!(got.headers()["content-type"], "image/png");
    assert_eq!(got.bytes().await.unwrap().as_ref(), file.as_slice());
    let listed = http.get(format!("{base}/media")).send().await.unwrap();
    let listed = listed.text().await.unwrap();
    assert!(listed.contains("pic.png"), "{listed}");
    assert!(!listed.contains("__sandbox"), "{listed}");
}

/// Messages listed with filters as Twilio and Bandwidth name them: `To` for the field `to`,
/// `messageId` for itself, a status (an enum) given once or as a list, a kind by its default
/// when left out; a date's bound (`DateSent>`) and paging are no filters.
const FILTERED: &str = r#"
service: { name: texts, title: Texts, summary: Texts, source: assumed, base_url: { default: "http://localhost:1", env: TEXTS_BASE_URL, source: assumed } }
operations:
  send_message: { method: POST, path: /messages, body: NewMessage, response: Message, status: 201, source: assumed }
  list_messages:
    method: GET
    path: /messages
    query:
      To: { type: string }
      messageId: { type: string }
      kind: { type: Kind, default: sms }
      status: { type: "list<Status>", style: repeat }
      "DateSent>": { type: string }
      Page: { type: integer }
      PageSize: { type: integer }
    response: page<Message>
    pagination: { style: page, items_field: messages, page_param: Page, size_param: PageSize, first_page: 0 }
    source: assumed
types:
  NewMessage: { source: assumed, fields: { to: { type: string, required: true }, status: { type: Status }, kind: { type: Kind, default: sms } } }
  Message:
    source: assumed
    fields:
      messageId: { type: string, required: true }
      to: { type: string, required: true }
      status: { type: Status }
      kind: { type: Kind, default: sms }
      date_sent: { type: string, format: rfc3339 }
  Status: { source: assumed, values: [queued, sent, failed] }
  Kind: { source: assumed, values: [sms, mms] }
"#;

/// A list's query parameters named like its items' fields filter what it answers, paged after
/// filtering; what the request leaves out filters nothing. (Every item was listed whatever the
/// query asked for.)
#[tokio::test]
async fn a_lists_query_parameters_named_like_its_fields_filter_its_items() {
    let (_dir, _running, base) = serve_spec(FILTERED, "TEXTS_BASE_URL");
    let http = reqwest::Client::new();
    let mut ids = Vec::new();
    for (to, status) in [
        ("+15550001", "sent"),
        ("+15550002", "failed"),
        ("+15550001", "queued"),
        ("+15550001", "sent"),
    ] {
        let r = http
            .post(format!("{base}/messages"))
            .json(&serde_json::json!({"to": to, "status": status}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 201);
        let made: serde_json::Value = r.json().await.unwrap();
        ids.push(made["messageId"].as_str().unwrap().to_owned());
    }
    let list = |query: String| {
        let http = http.clone();
        let base = base.clone();
        async move {
            let r = http
                .get(format!("{base}/messages{query}"))
                .send()
                .await
                .unwrap();
            assert!(r.status().is_success(), "{query}: {}", r.status());
            let page: serde_json::Value = r.json().await.unwrap();
            page["messages"]
                .as_array()
                .unwrap_or_else(|| panic!("{query}: {page}"))
                .iter()
                .map(|m| m["messageId"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    let pick = |at: &[usize]| at.iter().map(|i| ids[*i].clone()).collect::<Vec<_>>();
    assert_eq!(list(String::new()).await, ids);
    assert_eq!(list("?To=%2B15550001".into()).await, pick(&[0, 2, 3]));
    assert_eq!(
        list("?To=%2B15550001&status=sent".into()).await,
        pick(&[0, 3])
    );
    assert_eq!(
        list("?status=sent&status=failed".into()).await,
        pick(&[0, 1, 3])
    );
    assert_eq!(list("?To=%2B15559999".into()).await, pick(&[]));
    assert_eq!(list("?DateSent%3E=2020-01-01".into()).await, ids);
    // Paged after filtering: the second of the three, alone on page 1.
    assert_eq!(
        list("?To=%2B15550001&PageSize=1&Page=1".into()).await,
        pick(&[2])
    );
    assert_eq!(list(format!("?messageId={}", ids[1])).await, pick(&[1]));
    // A filter's `default` filters a request that leaves it out.
    let r = http
        .post(format!("{base}/messages"))
        .json(&serde_json::json!({"to": "+15550003", "kind": "mms"}))
        .send()
        .await
        .unwrap();
    let mms: serde_json::Value = r.json().await.unwrap();
    assert_eq!(list(String::new()).await, ids);
    assert_eq!(
        list("?kind=mms".into()).await,
        [mms["messageId"].as_str().unwrap()]
    );
}

/// A delete answering its own confirmation, wrapped as Novu's is, and a send answering a list
/// of statuses, as Mandrill's does (its key in the body, the document declaring no scheme).
const ANSWERS: &str = r#"
service: { name: answers, title: Answers, summary: Answers, source: assumed, base_url: { default: "http://localhost:1", env: ANSWERS_BASE_URL, source: assumed } }
operations:
  create_subscriber: { method: POST, path: /subscribers, body: Subscriber, response: SubscriberAnswer, status: 201, source: assumed }
  get_subscriber: { method: GET, path: "/subscribers/{subscriberId}", path_params: { subscriberId: { type: string } }, response: SubscriberAnswer, source: assumed }
  delete_subscriber: { method: DELETE, path: "/subscribers/{subscriberId}", path_params: { subscriberId: { type: string } }, response: DeletedAnswer, source: assumed }
  send: { method: POST, path: /messages/send.json, body: SendRequest, response: "list<SendStatus>", source: assumed }
types:
  Subscriber: { source: assumed, fields: { subscriberId: { type: string, required: true }, data: { type: json } }, additional: json }
  SubscriberAnswer: { source: assumed, fields: { data: { type: Subscriber, required: true } } }
  DeletedAnswer: { source: assumed, fields: { data: { type: Deleted, required: true } } }
  Deleted: { source: assumed, fields: { acknowledged: { type: boolean, required: true }, status: { type: string, required: true } } }
  SendRequest: { source: assumed, fields: { key: { type: string }, message: { type: json } }, additional: json }
  SendStatus: { source: assumed, fields: { email: { type: string }, status: { type: string }, _id: { type: string } }, additional: json }
"#;

/// A delete answers its declared confirmation, never the item merged into it (Novu's
/// subscriber came back with `acknowledged` and `status` written into its own `data`, and the
/// envelope gone); an action answering a list shows none of the request in it (Mandrill's send
/// answered the request, its key among it, as the list's item).
#[tokio::test]
async fn a_delete_answers_its_own_type_and_a_send_never_echoes_the_request() {
    let (_dir, _running, base) = serve_spec(ANSWERS, "ANSWERS_BASE_URL");
    let http = reqwest::Client::new();
    let r = http
        .post(format!("{base}/subscribers"))
        .json(&serde_json::json!({"subscriberId": "s1", "data": {"plan": "pro"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    let (_, deleted) = send(http.delete(format!("{base}/subscribers/s1"))).await;
    let data = deleted["data"].as_object().unwrap();
    assert_eq!(data["acknowledged"], true, "{deleted}");
    assert!(data["status"].is_string(), "{deleted}");
    assert_eq!(data.len(), 2, "{deleted}");
    assert_eq!(deleted.as_object().unwrap().len(), 1, "{deleted}");
    let gone = http
        .get(format!("{base}/subscribers/s1"))
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), 404);

    let sent = http
        .post(format!("{base}/messages/send.json"))
        .json(&serde_json::json!({"key": "SECRET-KEY", "message": {"to": [{"email": "a@b.co"}]}}))
        .send()
        .await
        .unwrap();
    assert!(sent.status().is_success(), "{}", sent.status());
    let text = sent.text().await.unwrap();
    assert!(!text.contains("SECRET-KEY"), "{text}");
    let statuses: serde_json::Value = serde_json::from_str(&text).unwrap();
    for status in statuses.as_array().unwrap() {
        for key in status.as_object().unwrap().keys() {
            assert!(["email", "status", "_id"].contains(&key.as_str()), "{text}");
        }
    }
}

/// Novu's lists: the page wrapped in `data`, its cursor in `data.next`, taken back as `after`,
/// a `number` count beside the items.
const WRAPPED_PAGE: &str = r#"
service: { name: subs, title: Subs, summary: Subs, source: assumed, base_url: { default: "http://localhost:1", env: SUBS_BASE_URL, source: assumed } }
operations:
  create_subscriber: { method: POST, path: /v2/subscribers, body: Subscriber, response: Subscriber, status: 201, source: assumed }
  list_subscribers:
    method: GET
    path: /v2/subscribers
    query: { after: { type: string }, limit: { type: number } }
    response: ListAnswer
    pagination: { style: token, items_field: data.data, token_field: data.next, token_param: after, limit_param: limit }
    source: assumed
types:
  Subscriber: { source: assumed, fields: { subscriberId: { type: string, required: true } } }
  ListAnswer: { source: assumed, fields: { data: { type: ListDto } } }
  ListDto: { source: assumed, fields: { data: { type: "list<Subscriber>", required: true }, next: { type: string }, totalCount: { type: number } } }
"#;

/// A page one level down is paged in its style and counted: every item once, over pages.
/// (`totalCount` answered 0.0 beside three items.)
#[tokio::test]
async fn a_page_the_answer_wraps_is_paged_and_counted() {
    let (_dir, _running, base) = serve_spec(WRAPPED_PAGE, "SUBS_BASE_URL");
    let http = reqwest::Client::new();
    for id in ["s1", "s2", "s3"] {
        let r = http
            .post(format!("{base}/v2/subscribers"))
            .json(&serde_json::json!({ "subscriberId": id }))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 201);
    }
    let mut seen = Vec::new();
    let mut after: Option<String> = None;
    for _ in 0..3 {
        let url = match &after {
            Some(a) => format!("{base}/v2/subscribers?limit=2&after={a}"),
            None => format!("{base}/v2/subscribers?limit=2"),
        };
        let page: serde_json::Value = http.get(url).send().await.unwrap().json().await.unwrap();
        assert_eq!(page["data"]["totalCount"], 3.0, "{page}");
        for s in page["data"]["data"].as_array().unwrap() {
            seen.push(s["subscriberId"].as_str().unwrap().to_owned());
        }
        after = page["data"]["next"].as_str().map(str::to_owned);
        if after.is_none() {
            break;
        }
    }
    assert_eq!(seen, ["s1", "s2", "s3"]);
}

/// Errors as Novu and Ably describe them: a `statusCode` number in the body, and for Ably's
/// reads only headers (`x-ably-errorcode`, `x-ably-errormessage`, `x-ably-serverid`).
const ERROR_DETAILS: &str = r#"
service: { name: details, title: Details, summary: Details, source: assumed, base_url: { default: "http://localhost:1", env: DETAILS_BASE_URL, source: assumed } }
errors: { type: ErrorDto, code: errorId, message: message, source: assumed }
operations:
  create_channel: { method: POST, path: /channels, body: Channel, response: Channel, status: 201, source: assumed }
  get_channel:
    method: GET
    path: "/channels/{id}"
    path_params: { id: { type: string } }
    response: Channel
    error_bodies: { default: { code: none, message: none, headers: [x-ably-errorcode, x-ably-errormessage, x-ably-serverid] } }
    source: assumed
types:
  ErrorDto: { source: assumed, fields: { statusCode: { type: number, required: true }, errorId: { type: string }, message: { type: string } } }
  Channel: { source: assumed, fields: { id: { type: string, required: true } } }
"#;

/// A refusal's number named like a status is the answer's status (Novu's `statusCode` said
/// 0.0), and an error documented by its headers alone gets them, with the service's body (it
/// was answered as plain text without them).
#[tokio::test]
async fn error_details_carry_the_status_and_the_documented_headers() {
    let (_dir, _running, base) = serve_spec(ERROR_DETAILS, "DETAILS_BASE_URL");
    let http = reqwest::Client::new();
    let refused = http
        .post(format!("{base}/channels"))
        .json(&serde_json::json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 422);
    let body: serde_json::Value = refused.json().await.unwrap();
    assert_eq!(body["statusCode"], 422, "{body}");
    assert!(
        body["message"].as_str().is_some_and(|m| m.contains("id")),
        "{body}"
    );

    let missing = http
        .get(format!("{base}/channels/nope"))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
    let header = |name: &str| {
        missing
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_owned())
    };
    assert!(header("x-ably-errorcode").is_some_and(|c| !c.is_empty()));
    assert!(header("x-ably-errormessage").is_some_and(|m| !m.is_empty()));
    assert_eq!(header("x-ably-serverid"), None);
    assert!(header("content-type").is_some_and(|t| t.starts_with("application/json")));
    let body: serde_json::Value = missing.json().await.unwrap();
    assert_eq!(body["statusCode"], 404, "{body}");
}

/// Fields the service sets, as Ably's document marks them `readOnly`: a message's `id`, a
/// device's `state`.
const SET_BY_SERVICE: &str = r#"
service: { name: setby, title: Set by, summary: Set by, source: assumed, base_url: { default: "http://localhost:1", env: SETBY_BASE_URL, source: assumed } }
operations:
  register: { method: POST, path: /devices, body: Device, response: Device, status: 201, source: assumed }
  get_device: { method: GET, path: "/devices/{id}", path_params: { id: { type: string } }, response: Device, source: assumed }
types:
  Device:
    source: assumed
    fields:
      id: { type: string, read_only: true }
      platform: { type: string, required: true }
      state: { type: string, read_only: true }
"#;

/// What a request says of a field the service sets is not kept: the item gets an id of the
/// service's, and the state it was given is not stored. (Both were stored and answered as
/// sent, an `id` the client chose becoming the item's key.)
#[tokio::test]
async fn fields_the_service_sets_are_not_taken_from_a_request() {
    let (_dir, _running, base) = serve_spec(SET_BY_SERVICE, "SETBY_BASE_URL");
    let http = reqwest::Client::new();
    let (_, made) = send(
        http.post(format!("{base}/devices"))
            .json(&serde_json::json!({"id": "mine", "platform": "ios", "state": "Failed"})),
    )
    .await;
    let id = made["id"].as_str().unwrap();
    assert_ne!(id, "mine", "{made}");
    assert_ne!(made["state"], "Failed", "{made}");
    let (_, got) = send(http.get(format!("{base}/devices/{id}"))).await;
    assert_eq!(got["platform"], "ios");
    assert_ne!(got["state"], "Failed", "{got}");
    let mine = http
        .get(format!("{base}/devices/mine"))
        .send()
        .await
        .unwrap();
    assert_eq!(mine.status(), 404);
}

const TOGETHER: &str = r#"
service: { name: pair, title: Pair, summary: Pair, source: assumed, base_url: { default: "http://localhost:1", env: PAIR_BASE_URL, source: assumed } }
credentials:
  app_id: { env: PAIR_APP_ID, secret: false, source: assumed }
  api_key: { env: PAIR_API_KEY, source: assumed }
auth:
  - { name: app_and_key, kind: all, schemes: [app, key], source: assumed }
  - { name: app, kind: header, header: X-App-Id, credential: app_id, source: assumed }
  - { name: key, kind: header, header: X-Api-Key, credential: api_key, source: assumed }
operations:
  get_time: { method: GET, path: /time, response: Time, source: assumed }
  list_keys: { method: GET, path: /keys, response: Time, auth: key, source: assumed }
types:
  Time: { source: assumed, fields: { now: { type: integer } } }
"#;

/// An app id and a key required together (`kind: all`): `--spec` prints both, takes a request
/// carrying both, and refuses one carrying either alone; an operation naming one member takes
/// that one alone.
#[tokio::test]
async fn schemes_required_together_are_served_together() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("pair.yaml");
    std::fs::write(&spec, TOGETHER).unwrap();
    let (_running, exports) = start(
        &["--rate-limit", "off", "--spec", spec.to_str().unwrap()],
        "PAIR_API_KEY",
    );
    let base = env(&exports, "PAIR_BASE_URL");
    let (app, key) = (env(&exports, "PAIR_APP_ID"), env(&exports, "PAIR_API_KEY"));
    let http = reqwest::Client::new();
    let time = || http.get(format!("{base}/time"));
    let (status, _) = send(time().header("x-app-id", app).header("x-api-key", key)).await;
    assert_eq!(status, 200);
    let (status, body) = send(time().header("x-api-key", key)).await;
    assert_eq!(status, 401, "{body}");
    let (status, body) = send(time()).await;
    assert_eq!(status, 401);
    let text = body.to_string();
    assert!(
        text.contains("X-App-Id") && text.contains("X-Api-Key"),
        "{text}"
    );
    let (status, _) = send(http.get(format!("{base}/keys")).header("x-api-key", key)).await;
    assert_eq!(status, 200);
}

const TOKEN_PAGES: &str = r#"
service: { name: blocks, title: Blocks, summary: Blocks, source: assumed, base_url: { default: "http://localhost:1", env: BLOCKS_BASE_URL, source: assumed } }
operations:
  list_blocks:
    method: GET
    path: /blocks
    query: { cursor: {}, limit: { type: integer } }
    response: BlockPage
    pagination: { style: token, items_field: blocks, token_field: next_cursor, token_param: cursor, limit_param: limit }
    source: assumed
  create_block: { method: POST, path: /blocks, body: Block, response: Block, status: 201, source: assumed }
types:
  Block: { source: assumed, fields: { name: { type: string, required: true } } }
  BlockPage:
    source: assumed
    fields:
      blocks: { type: list<Block>, required: true }
      next_cursor: { type: string }
"#;

/// The last page of a list whose next token is an optional text (Stream's `next_cursor`)
/// leaves the token out: it answered `"next_cursor": null`, which the type does not allow.
#[tokio::test]
async fn the_last_page_leaves_out_an_optional_next_token() {
    let (_dir, _running, base) = serve_spec(TOKEN_PAGES, "BLOCKS_BASE_URL");
    let http = reqwest::Client::new();
    for name in ["a", "b", "c"] {
        let (status, _) = send(
            http.post(format!("{base}/blocks"))
                .json(&serde_json::json!({ "name": name })),
        )
        .await;
        assert_eq!(status, 201);
    }
    let (_, first) = send(http.get(format!("{base}/blocks?limit=2"))).await;
    let next = first["next_cursor"].as_str().unwrap();
    let (_, last) = send(http.get(format!("{base}/blocks?limit=2&cursor={next}"))).await;
    assert_eq!(last["blocks"].as_array().unwrap().len(), 1, "{last}");
    assert!(last.get("next_cursor").is_none(), "{last}");
}

const CANCEL: &str = r#"
service: { name: batches, title: Batches, summary: Batches, source: assumed, base_url: { default: "http://localhost:1", env: BATCHES_BASE_URL, source: assumed } }
operations:
  send_batch: { method: POST, path: /batches, body: SendBatch, response: Batch, status: 201, source: assumed }
  cancel_batch: { method: DELETE, path: "/batches/{batch_id}", path_params: { batch_id: {} }, response: SendBatch, source: assumed }
types:
  Batch: { source: assumed, fields: { id: { type: string }, body: { type: string }, to: { type: list<string> }, flash_message: { type: boolean } } }
  SendBatch: { source: assumed, fields: { body: { type: string, required: true }, to: { type: list<string>, required: true }, flash_message: { type: boolean } } }
"#;

/// A delete answering a view of the item without its id (Sinch's cancel answers the batch
/// as it was sent) answers the removed item's fields: it answered made-up text and turned
/// `flash_message: false` into `true`.
#[tokio::test]
async fn a_delete_answering_a_view_of_the_item_answers_the_item() {
    let (_dir, _running, base) = serve_spec(CANCEL, "BATCHES_BASE_URL");
    let http = reqwest::Client::new();
    let sent = serde_json::json!({ "body": "hi", "to": ["+15550100"], "flash_message": false });
    let (status, made) = send(http.post(format!("{base}/batches")).json(&sent)).await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap();
    let (status, cancelled) = send(http.delete(format!("{base}/batches/{id}"))).await;
    assert_eq!(status, 200, "{cancelled}");
    assert_eq!(cancelled, sent);
}

const DOCUMENTS_400: &str = r#"
service: { name: notes400, title: Notes, summary: Notes, source: assumed, base_url: { default: "http://localhost:1", env: NOTES400_BASE_URL, source: assumed } }
operations:
  create_note: { method: POST, path: /notes, body: Note, response: Note, status: 201, errors: [400], source: assumed }
types:
  Note: { source: assumed, fields: { id: { type: string }, text: { type: string, required: true } } }
"#;

/// A refusal the operation documents as 400 goes out as 400, and the log says so after the
/// line that names the 422 it was made with (the log and the wire disagreed without a word).
#[tokio::test]
async fn the_log_says_which_status_a_refusal_is_answered_in() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("notes.yaml");
    std::fs::write(&spec, DOCUMENTS_400).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tidings-sandbox"))
        .args(["--no-ui", "--no-smtp", "--rate-limit", "off", "--spec"])
        .arg(&spec)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let _running = Running(child);
    let (lines, logged) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    let base = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find_map(|l| {
            l.strip_prefix("export NOTES400_BASE_URL=")
                .map(str::to_owned)
        })
        .unwrap();
    let (status, _) = send(
        reqwest::Client::new()
            .post(format!("{base}/notes"))
            .json(&serde_json::json!({ "words": 3 })),
    )
    .await;
    assert_eq!(status, 400);
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut seen = Vec::new();
    while Instant::now() < deadline {
        let Ok(line) = logged.recv_timeout(Duration::from_millis(200)) else {
            continue;
        };
        if line.contains("refusal answered in the status the operation documents") {
            assert!(
                line.contains("from=422") && line.contains("status=400"),
                "{line}"
            );
            return;
        }
        seen.push(line);
    }
    panic!("no line says the refusal went out as 400: {seen:#?}");
}
