//! The durable store (`--data`): what it acknowledges is loaded back, within its bounds; what it
//! cannot commit answers 507 and changes nothing.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::*;

fn create(store: &Resources, body: Value) -> Result<Value, ServerError> {
    store.serve(
        &SCHEMA,
        &op(ResourceAction::Create, false),
        &call(None, Value::Null, body),
    )
}

fn get(store: &Resources, id: &str) -> Result<Value, ServerError> {
    store.serve(
        &SCHEMA,
        &op(ResourceAction::Get, true),
        &call(Some(id), Value::Null, Value::Null),
    )
}

fn all(store: &Resources) -> Value {
    store
        .serve(
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
    store.serve(&SCHEMA, &op, &call(None, Value::Null, json!({})))
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
            .serve(
                &SCHEMA,
                &op(ResourceAction::Merge, true),
                &call(Some(&ids[1]), Value::Null, json!({"status": "verified"})),
            )
            .unwrap();
        store
            .serve(
                &SCHEMA,
                &op(ResourceAction::Replace, true),
                &call(Some("custom"), Value::Null, json!({"name": "put.example"})),
            )
            .unwrap();
        // The newest generated id is deleted: a restart must not make it again.
        for gone in [&ids[2], &ids[4]] {
            store
                .serve(
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

/// Fails every commit while `fail` is set.
struct Flaky(Arc<AtomicBool>);

impl Journal for Flaky {
    fn commit(&mut self, _: Change<'_>) -> Result<(), String> {
        if self.0.load(Ordering::SeqCst) {
            Err("database or disk is full".to_owned())
        } else {
            Ok(())
        }
    }
}

#[test]
fn a_change_that_cannot_be_committed_answers_507_and_changes_nothing_in_memory() {
    let fail = Arc::new(AtomicBool::new(false));
    let store = Resources::with_journal(ResourceLimits::default(), Box::new(Flaky(fail.clone())));
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
        let err = store.serve(&SCHEMA, op, call).unwrap_err();
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
