//! The durable store (`--data`): what it acknowledges is loaded back, within its bounds; what it
//! cannot commit answers 507 and changes nothing.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::*;
use crate::server::resources::group::{MAX_BATCH, MAX_QUEUED, Recorder};

fn create(store: &Resources, body: Value) -> Result<Value, ServerError> {
    store.serve_now(
        &SCHEMA,
        &op(ResourceAction::Create, false),
        &call(None, Value::Null, body),
    )
}

fn get(store: &Resources, id: &str) -> Result<Value, ServerError> {
    store.serve_now(
        &SCHEMA,
        &op(ResourceAction::Get, true),
        &call(Some(id), Value::Null, Value::Null),
    )
}

fn all(store: &Resources) -> Value {
    store
        .serve_now(
            &SCHEMA,
            &op(ResourceAction::List, false),
            &call(None, json!({"limit": 100}), Value::Null),
        )
        .unwrap()["data"]
        .clone()
}

fn id(value: &Value) -> String {
    value["id"].as_str().unwrap().to_owned()
}

/// A collection other than `/v1/domains`.
fn create_in(store: &Resources, collection: &'static str) -> Result<Value, ServerError> {
    let op = ResourceOp {
        collection,
        ..op(ResourceAction::Create, false)
    };
    store.serve_now(&SCHEMA, &op, &call(None, Value::Null, json!({})))
}

#[test]
fn a_durable_store_loads_every_change_in_order_and_never_repeats_an_id() {
    let dir = tempfile::tempdir().unwrap();
    let path = store_path(dir.path(), "served-demo");
    let before;
    let ids: Vec<String>;
    {
        let store = Resources::open(ResourceLimits::default(), &path).unwrap();
        assert!(store.is_durable());
        ids = (0..5)
            .map(|i| id(&create(&store, json!({"name": format!("d{i}.example")})).unwrap()))
            .collect();
        store
            .serve_now(
                &SCHEMA,
                &op(ResourceAction::Merge, true),
                &call(Some(&ids[1]), Value::Null, json!({"status": "verified"})),
            )
            .unwrap();
        store
            .serve_now(
                &SCHEMA,
                &op(ResourceAction::Replace, true),
                &call(Some("custom"), Value::Null, json!({"name": "put.example"})),
            )
            .unwrap();
        // The newest generated id is deleted: a restart must not make it again.
        for gone in [&ids[2], &ids[4]] {
            store
                .serve_now(
                    &SCHEMA,
                    &op(ResourceAction::Delete, true),
                    &call(Some(gone), Value::Null, Value::Null),
                )
                .unwrap();
        }
        before = all(&store);
    }
    assert!(path.exists(), "{}", path.display());
    let store = Resources::open(ResourceLimits::default(), &path).unwrap();
    let after = all(&store);
    assert_eq!(after, before, "same items, same order, same fields");
    let kept: Vec<String> = after.as_array().unwrap().iter().map(id).collect();
    assert_eq!(kept, [&ids[0], &ids[1], &ids[3], "custom"]);
    assert_eq!(get(&store, &ids[1]).unwrap()["status"], "verified");
    assert_eq!(get(&store, "custom").unwrap()["name"], "put.example");
    assert_eq!(get(&store, &ids[2]).unwrap_err().status(), 404);
    let new = id(&create(&store, json!({})).unwrap());
    assert_eq!(new, "res_00000006", "past every id made before the restart");
}

/// Deleting an item deletes what lives under it (an app's keys under `/apps/{id}/keys`),
/// each removal on disk: after a restart the nested collection is still empty, and another
/// item's nested collection is untouched.
#[test]
fn a_delete_takes_what_lives_under_the_item_with_it_durably() {
    let dir = tempfile::tempdir().unwrap();
    let path = store_path(dir.path(), "served-cascade");
    let keys = ResourceOp {
        collection: "/v1/domains/{parent}/keys",
        response: Some(Ty::List(&Ty::Named("Domain"))),
        ..op(ResourceAction::List, false)
    };
    let under = |parent: &str, body: Value| ResourceCall {
        merge_nested: false,
        path: vec![("parent", parent.to_owned())],
        query: Value::Null,
        body,
        named_as: None,
        sendable: None,
        read_as: None,
        item_path: None,
        keeps_made: false,
        names_made: None,
    };
    let add_key = ResourceOp {
        collection: "/v1/domains/{parent}/keys",
        ..op(ResourceAction::Create, false)
    };
    let (gone, kept);
    {
        let store = Resources::open(ResourceLimits::default(), &path).unwrap();
        gone = id(&create(&store, json!({"name": "a.example"})).unwrap());
        kept = id(&create(&store, json!({"name": "b.example"})).unwrap());
        for parent in [&gone, &gone, &kept] {
            store
                .serve_now(&SCHEMA, &add_key, &under(parent, json!({"name": "key"})))
                .unwrap();
        }
        store
            .serve_now(
                &SCHEMA,
                &op(ResourceAction::Delete, true),
                &call(Some(&gone), Value::Null, Value::Null),
            )
            .unwrap();
        let listed = store
            .serve_now(&SCHEMA, &keys, &under(&gone, Value::Null))
            .unwrap();
        assert_eq!(listed, json!([]));
        store.close();
    }
    let store = Resources::open(ResourceLimits::default(), &path).unwrap();
    let listed = |parent: &str| {
        store
            .serve_now(&SCHEMA, &keys, &under(parent, Value::Null))
            .unwrap()
    };
    assert_eq!(listed(&gone), json!([]), "the removals were committed");
    assert_eq!(listed(&kept).as_array().map(Vec::len), Some(1));
}

/// The item and what lives under it are one change: when it cannot be committed, the item
/// and every item under it are still there (none half deleted).
#[test]
fn a_delete_with_items_under_it_that_cannot_be_committed_keeps_them_all() {
    let journal = Recorder::default();
    let fail = journal.fail.clone();
    let store = Resources::with_journal(ResourceLimits::default(), Box::new(journal));
    let parent = id(&create(&store, json!({"name": "a.example"})).unwrap());
    let keys = ResourceOp {
        collection: "/v1/domains/{parent}/keys",
        ..op(ResourceAction::Create, false)
    };
    let under = |body: Value| ResourceCall {
        merge_nested: false,
        path: vec![("parent", parent.clone())],
        query: Value::Null,
        body,
        named_as: None,
        sendable: None,
        read_as: None,
        item_path: None,
        keeps_made: false,
        names_made: None,
    };
    for _ in 0..2 {
        store.serve_now(&SCHEMA, &keys, &under(json!({}))).unwrap();
    }
    let before = store.collections();
    fail.store(true, Ordering::SeqCst);
    let err = store
        .serve_now(
            &SCHEMA,
            &op(ResourceAction::Delete, true),
            &call(Some(&parent), Value::Null, Value::Null),
        )
        .unwrap_err();
    assert_eq!(err.status(), 507);
    assert_eq!(store.collections(), before, "{}", err.message());
    assert_eq!(get(&store, &parent).unwrap()["name"], "a.example");
}

#[test]
fn a_change_that_cannot_be_committed_answers_507_and_changes_nothing_in_memory() {
    let journal = Recorder::default();
    let fail = journal.fail.clone();
    let store = Resources::with_journal(ResourceLimits::default(), Box::new(journal));
    let a = id(&create(&store, json!({"name": "a.example"})).unwrap());
    create(&store, json!({"name": "b.example"})).unwrap();
    let before = all(&store);
    fail.store(true, Ordering::SeqCst);
    let attempts = [
        (
            op(ResourceAction::Create, false),
            call(None, Value::Null, json!({"name": "c.example"})),
        ),
        (
            op(ResourceAction::Merge, true),
            call(Some(&a), Value::Null, json!({"name": "merged.example"})),
        ),
        (
            op(ResourceAction::Replace, true),
            call(Some(&a), Value::Null, json!({"name": "replaced.example"})),
        ),
        (
            op(ResourceAction::Replace, true),
            call(Some("new"), Value::Null, json!({"name": "new.example"})),
        ),
        (
            op(ResourceAction::Delete, true),
            call(Some(&a), Value::Null, Value::Null),
        ),
    ];
    for (op, call) in &attempts {
        let err = store.serve_now(&SCHEMA, op, call).unwrap_err();
        assert_eq!((err.status(), err.code()), (507, "insufficient_storage"));
        assert!(err.message().contains("disk is full"), "{}", err.message());
        assert!(
            err.message().contains("nothing was kept"),
            "{}",
            err.message()
        );
    }
    assert_eq!(all(&store), before, "memory unchanged");
    assert_eq!(store.len(), 2);
    assert_eq!(get(&store, &a).unwrap()["name"], "a.example");
    assert_eq!(get(&store, "new").unwrap_err().status(), 404);
    // Reads go on while writes fail; once the disk has room the id counter goes on where it
    // was (the refused create used no id).
    fail.store(false, Ordering::SeqCst);
    assert_eq!(id(&create(&store, json!({})).unwrap()), "res_00000003");
}

#[test]
fn a_full_sqlite_file_answers_507_and_a_restart_has_exactly_what_was_acknowledged() {
    let dir = tempfile::tempdir().unwrap();
    let path = store_path(dir.path(), "served-full");
    let mut acknowledged = Vec::new();
    let mut refused = 0;
    {
        let sqlite = crate::server::resources::durable::Sqlite::open(&path).unwrap();
        // Room for a few items of 6 KB (each takes overflow pages), then SQLITE_FULL.
        sqlite.cap_pages(12);
        let store = Resources::load(ResourceLimits::default(), &path, sqlite).unwrap();
        for i in 0..40 {
            match create(&store, json!({"name": format!("{i}{}", "x".repeat(6_000))})) {
                Ok(item) => acknowledged.push(id(&item)),
                Err(err) => {
                    assert_eq!(err.status(), 507, "{}", err.message());
                    refused += 1;
                }
            }
        }
        assert_eq!(
            store.len(),
            acknowledged.len(),
            "memory holds only what was kept"
        );
    }
    assert!(acknowledged.len() >= 2, "some fit: {acknowledged:?}");
    assert!(refused > 0, "the cap was reached");
    let store = Resources::open(ResourceLimits::default(), &path).unwrap();
    let kept: Vec<String> = all(&store).as_array().unwrap().iter().map(id).collect();
    assert_eq!(kept, acknowledged);
}

#[test]
fn a_loaded_store_keeps_its_bounds_and_leaves_the_rest_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let path = store_path(dir.path(), "served-bounds");
    {
        let store = Resources::open(ResourceLimits::default(), &path).unwrap();
        for _ in 0..5 {
            create(&store, json!({})).unwrap();
        }
        for _ in 0..3 {
            create_in(&store, "/v1/other").unwrap();
        }
        assert_eq!(store.len(), 8);
    }
    let small = ResourceLimits {
        max_items_per_collection: 3,
        max_collections: 1,
        ..ResourceLimits::default()
    };
    {
        let store = Resources::open(small, &path).unwrap();
        assert_eq!(
            store.len(),
            3,
            "3 items of the first collection, no second collection"
        );
        let kept: Vec<String> = all(&store).as_array().unwrap().iter().map(id).collect();
        assert_eq!(kept, ["res_00000001", "res_00000002", "res_00000003"]);
        let full = create(&store, json!({})).unwrap_err();
        assert_eq!((full.status(), full.code()), (409, "collection_full"));
        let full = create_in(&store, "/v1/other").unwrap_err();
        assert!(
            full.message().contains("at most 1 collections"),
            "{}",
            full.message()
        );
    }
    {
        let tiny = ResourceLimits {
            max_stored_bytes: 400,
            ..ResourceLimits::default()
        };
        let store = Resources::open(tiny, &path).unwrap();
        let bytes: usize = all(&store)
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.to_string().len())
            .sum();
        assert!(
            store.len() < 8 && bytes <= 400,
            "{} items, {bytes} bytes",
            store.len()
        );
    }
    // Nothing was dropped from disk: the default bounds load all 8 again.
    let store = Resources::open(ResourceLimits::default(), &path).unwrap();
    assert_eq!(store.len(), 8);
    assert_eq!(id(&create(&store, json!({})).unwrap()), "res_00000009");
}

#[test]
fn a_second_store_on_the_same_file_is_refused_until_the_first_is_closed() {
    let dir = tempfile::tempdir().unwrap();
    let path = store_path(dir.path(), "served/../odd name");
    assert_eq!(path.parent().unwrap(), dir.path().join(DIR_NAME));
    let first = Resources::open(ResourceLimits::default(), &path).unwrap();
    create(&first, json!({})).unwrap();
    let err = Resources::open(ResourceLimits::default(), &path).unwrap_err();
    assert!(matches!(err, OpenError::InUse { .. }), "{err}");
    assert!(err.to_string().contains("in use"), "{err}");
    first.close();
    let stopped = create(&first, json!({})).unwrap_err();
    assert_eq!(stopped.status(), 503);
    assert_eq!(first.len(), 1, "reads go on, nothing was added");
    let second = Resources::open(ResourceLimits::default(), &path).unwrap();
    assert_eq!(second.len(), 1);
}

#[test]
fn an_unreadable_stored_item_is_skipped_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let path = store_path(dir.path(), "served-damaged");
    {
        let store = Resources::open(ResourceLimits::default(), &path).unwrap();
        create(&store, json!({})).unwrap();
        create(&store, json!({})).unwrap();
    }
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute(
            "UPDATE items SET doc = 'not json' WHERE id = 'res_00000001'",
            [],
        )
        .unwrap();
    }
    let store = Resources::open(ResourceLimits::default(), &path).unwrap();
    assert_eq!(store.len(), 1);
    assert_eq!(id(&create(&store, json!({})).unwrap()), "res_00000003");
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs `requests` (operation, call) concurrently on `store`: each one's answer, in order.
async fn concurrently(
    store: &Arc<Resources>,
    requests: Vec<(ResourceOp, ResourceCall)>,
) -> Vec<Result<Value, ServerError>> {
    let tasks: Vec<_> = requests
        .into_iter()
        .map(|(op, call)| {
            let store = store.clone();
            tokio::spawn(async move { store.serve(&SCHEMA, &op, &call).await })
        })
        .collect();
    let mut answers = Vec::new();
    for task in tasks {
        answers.push(task.await.unwrap());
    }
    answers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_changes_share_one_commit_and_each_is_answered_after_it() {
    let journal = Recorder {
        hold: Duration::from_millis(40),
        ..Recorder::default()
    };
    let (batches, kept) = (journal.batches.clone(), journal.kept.clone());
    let store = Arc::new(Resources::with_journal(
        ResourceLimits::default(),
        Box::new(journal),
    ));
    let creates = (0..60)
        .map(|i| {
            (
                op(ResourceAction::Create, false),
                call(None, Value::Null, json!({"name": format!("{i}.example")})),
            )
        })
        .collect();
    let answers = concurrently(&store, creates).await;
    let acknowledged: Vec<String> = answers.iter().map(|a| id(a.as_ref().unwrap())).collect();
    let batches = lock(&batches).clone();
    assert_eq!(batches.iter().sum::<usize>(), 60, "{batches:?}");
    assert!(
        batches.len() < 60 && batches.iter().any(|&n| n > 1),
        "changes that queued behind a commit share the next one: {batches:?}"
    );
    let mut on_disk = lock(&kept).clone();
    let mut answered = acknowledged.clone();
    on_disk.sort();
    answered.sort();
    assert_eq!(on_disk, answered, "every acknowledged change is on disk");
    assert_eq!(store.len(), 60);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_failed_commit_takes_back_every_change_made_since_the_last_good_one() {
    let journal = Recorder::default();
    let (fail, kept) = (journal.fail.clone(), journal.kept.clone());
    let store = Arc::new(Resources::with_journal(
        ResourceLimits::default(),
        Box::new(journal),
    ));
    let mut first = Vec::new();
    for i in 0..10 {
        first.push(id(&store
            .serve(
                &SCHEMA,
                &op(ResourceAction::Create, false),
                &call(None, Value::Null, json!({"name": format!("{i}.example")})),
            )
            .await
            .unwrap()));
    }
    let before = store
        .serve(
            &SCHEMA,
            &op(ResourceAction::List, false),
            &call(None, json!({"limit": 100}), Value::Null),
        )
        .await
        .unwrap();
    fail.store(true, Ordering::SeqCst);
    // Creates, merges, replaces (of kept and new ids) and deletes, all in flight at once.
    let mut requests = Vec::new();
    for (i, kept_id) in first.iter().enumerate() {
        requests.push((
            op(ResourceAction::Create, false),
            call(
                None,
                Value::Null,
                json!({"name": format!("new{i}.example")}),
            ),
        ));
        let (kind, body) = match i % 3 {
            0 => (ResourceAction::Delete, Value::Null),
            1 => (ResourceAction::Merge, json!({"status": "changed"})),
            _ => (ResourceAction::Replace, json!({"name": "replaced.example"})),
        };
        requests.push((op(kind, true), call(Some(kept_id), Value::Null, body)));
        requests.push((
            op(ResourceAction::Replace, true),
            call(Some(&format!("put{i}")), Value::Null, json!({})),
        ));
    }
    let answers = concurrently(&store, requests).await;
    for answer in &answers {
        let err = answer.as_ref().unwrap_err();
        assert_eq!((err.status(), err.code()), (507, "insufficient_storage"));
    }
    let after = store
        .serve(
            &SCHEMA,
            &op(ResourceAction::List, false),
            &call(None, json!({"limit": 100}), Value::Null),
        )
        .await
        .unwrap();
    assert_eq!(
        after, before,
        "memory is what is on disk: same items, order, fields"
    );
    assert_eq!(*lock(&kept), first);
    fail.store(false, Ordering::SeqCst);
    let next = store
        .serve(
            &SCHEMA,
            &op(ResourceAction::Create, false),
            &call(None, Value::Null, json!({})),
        )
        .await
        .unwrap();
    assert_eq!(id(&next), "res_00000011", "the refused creates used no id");
}

/// A store room for twice the writer's queue, whose test journal records what it keeps and
/// commits only while its gate is open: the store, the ids kept, the gate.
#[allow(clippy::type_complexity)] // the three handles a stall test needs
fn stallable() -> (
    Arc<Resources>,
    Arc<Mutex<Vec<String>>>,
    Arc<std::sync::RwLock<()>>,
) {
    let journal = Recorder::default();
    let (kept, gate) = (journal.kept.clone(), journal.gate.clone());
    let store = Arc::new(Resources::with_journal(
        ResourceLimits {
            max_items_per_collection: 2 * MAX_QUEUED,
            ..ResourceLimits::default()
        },
        Box::new(journal),
    ));
    (store, kept, gate)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[allow(clippy::await_holding_lock)] // the guard stalls the writer thread, which takes no task's lock
async fn a_queue_past_its_bound_answers_503_at_once_and_keeps_nothing() {
    let (store, kept, gate) = stallable();
    // The disk stalls: the writer's first commit waits while more than the queue's bound (and
    // the batch it took) arrive.
    let stall = gate
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let creates: Vec<_> = (0..MAX_QUEUED + MAX_BATCH + 100)
        .map(|_| {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .serve(
                        &SCHEMA,
                        &op(ResourceAction::Create, false),
                        &call(None, Value::Null, json!({})),
                    )
                    .await
            })
        })
        .collect();
    let mut refused = 0;
    while creates.iter().filter(|t| t.is_finished()).count() < 100 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let waiting = store.len();
    assert!(waiting <= MAX_QUEUED + MAX_BATCH, "{waiting}");
    drop(stall);
    let mut acknowledged = 0;
    for task in creates {
        match task.await.unwrap() {
            Ok(_) => acknowledged += 1,
            Err(err) => {
                assert_eq!(err.status(), 503, "{}", err.message());
                assert!(
                    err.message().contains("nothing was kept"),
                    "{}",
                    err.message()
                );
                refused += 1;
            }
        }
    }
    assert!(refused >= 100, "{refused}");
    assert_eq!(
        store.len(),
        acknowledged,
        "memory holds only what was queued"
    );
    assert_eq!(lock(&kept).len(), acknowledged, "and all of it is on disk");
}

/// The delete of the items `?ids=` names, for a store whose test journal `fail`s on demand.
fn delete_ids(store: &Resources, ids: &str) -> Result<Value, ServerError> {
    let op = ResourceOp {
        items: Some("ids"),
        filters: &[],
        ..op(ResourceAction::Delete, false)
    };
    store.serve_now(
        &SCHEMA,
        &op,
        &call(None, json!({ "ids": ids }), Value::Null),
    )
}

/// A list created in one request, and the items one request deletes by their ids, are each
/// one change: when it cannot be committed none of it is kept (memory as before), and once
/// it can, all of it is, in one commit.
#[test]
fn a_list_created_or_deleted_in_one_request_is_kept_whole_or_not_at_all() {
    let journal = Recorder::default();
    let (fail, kept, batches) = (
        journal.fail.clone(),
        journal.kept.clone(),
        journal.batches.clone(),
    );
    let store = Resources::with_journal(ResourceLimits::default(), Box::new(journal));
    let list = json!([{"id": "a.example"}, {"id": "b.example"}, {"id": "c.example"}]);
    fail.store(true, Ordering::SeqCst);
    let err = create(&store, list.clone()).unwrap_err();
    assert_eq!(err.status(), 507, "{}", err.message());
    assert_eq!(store.len(), 0, "none of the three is kept");
    fail.store(false, Ordering::SeqCst);
    create(&store, list).unwrap();
    assert_eq!(lock(&kept).len(), 3);
    assert_eq!(lock(&batches).last(), Some(&1), "one change for the three");

    let before = store.collections();
    fail.store(true, Ordering::SeqCst);
    let err = delete_ids(&store, "a.example,c.example").unwrap_err();
    assert_eq!(err.status(), 507, "{}", err.message());
    assert_eq!(store.collections(), before, "neither is deleted");
    fail.store(false, Ordering::SeqCst);
    delete_ids(&store, "a.example,missing,c.example").unwrap();
    assert_eq!(*lock(&kept), ["b.example"]);
    assert_eq!(lock(&batches).last(), Some(&1), "one change for the two");
    assert_eq!(get(&store, "b.example").unwrap()["id"], "b.example");
}

/// A list longer than the writer's queue is one change, so it cannot fill the queue part
/// way (which kept the items before and answered 503 for the request): with the disk
/// stalled, all of it waits and is then kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[allow(clippy::await_holding_lock)] // the guard stalls the writer thread, which takes no task's lock
async fn a_list_longer_than_the_writers_queue_is_kept_whole() {
    let (store, kept, gate) = stallable();
    let stall = gate
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let count = MAX_QUEUED + MAX_BATCH + 10;
    let list: Vec<Value> = (0..count).map(|i| json!({"id": format!("d{i}")})).collect();
    let task = {
        let store = store.clone();
        tokio::spawn(async move {
            store
                .serve(
                    &SCHEMA,
                    &op(ResourceAction::Create, false),
                    &call(None, Value::Null, Value::Array(list)),
                )
                .await
        })
    };
    while store.len() < count && !task.is_finished() {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    drop(stall);
    task.await.unwrap().unwrap();
    assert_eq!(store.len(), count);
    assert_eq!(lock(&kept).len(), count, "all of it is on disk");
}

/// The same over SQLite: a list created and a delete by ids are on disk after a restart.
#[test]
fn a_list_and_a_delete_by_ids_are_loaded_back_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = store_path(dir.path(), "served-lists");
    {
        let store = Resources::open(ResourceLimits::default(), &path).unwrap();
        let list: Vec<Value> = (0..50).map(|i| json!({"id": format!("d{i}")})).collect();
        create(&store, Value::Array(list)).unwrap();
        delete_ids(&store, "d0,d49").unwrap();
        store.close();
    }
    let store = Resources::open(ResourceLimits::default(), &path).unwrap();
    assert_eq!(store.len(), 48);
    assert_eq!(get(&store, "d0").unwrap_err().status(), 404);
    assert_eq!(get(&store, "d1").unwrap()["id"], "d1");
}
