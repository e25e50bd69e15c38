//! Idempotency answers kept in the data directory (`--data`): each answer is written to the
//! service's file before it is sent, so a client retrying after the sandbox restarted gets the
//! same answer instead of a second change. One SQLite file per service
//! (`DIR/idempotency/<service>.sqlite3`), taken exclusively like the resource stores; rows
//! leave it when their key is forgotten (expired, evicted by the bounds), so the file holds
//! what memory holds.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::http::StatusCode;
use bytes::Bytes;
use rusqlite::{Connection, params};

use super::{Fingerprint, StoredAnswer, lock};

/// The folder of the idempotency files inside the data directory.
pub const DIR_NAME: &str = "idempotency";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY,
    fingerprint BLOB NOT NULL,
    status INTEGER NOT NULL,
    body BLOB NOT NULL,
    request_id TEXT NOT NULL,
    at_ms INTEGER NOT NULL
);
";

/// A service's idempotency file.
#[derive(Clone)]
pub(crate) struct AnswerFile {
    conn: Arc<Mutex<Option<Connection>>>,
    path: Arc<PathBuf>,
}

impl std::fmt::Debug for AnswerFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnswerFile")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// One answer read back: the key, its request's fingerprint, the answer and how old it is.
pub(super) struct Kept {
    pub(super) key: String,
    pub(super) fingerprint: Fingerprint,
    pub(super) answer: StoredAnswer,
    pub(super) age: Duration,
}

/// The file of `service`'s answers in the data directory `data`.
pub fn answer_path(data: &Path, service: &str) -> PathBuf {
    let safe: String = service
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    data.join(DIR_NAME).join(format!("{safe}.sqlite3"))
}

fn millis(at: SystemTime) -> i64 {
    at.duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl AnswerFile {
    /// Opens (creating) the file at `path` and takes it for this process.
    pub(crate) fn open(path: &Path) -> Result<AnswerFile, String> {
        let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
        if let Some(dir) = path.parent() {
            crate::store::create_private_dir(dir).map_err(|e| fail(&e))?;
        }
        let conn = Connection::open(path).map_err(|e| fail(&e))?;
        conn.busy_timeout(Duration::from_millis(100))
            .map_err(|e| fail(&e))?;
        conn.pragma_update(None, "locking_mode", "EXCLUSIVE")
            .map_err(|e| fail(&e))?;
        let taken = |e: rusqlite::Error| match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => fail(
                &"in use (another tidings-sandbox on this data directory, or two services of \
                  the same name)",
            ),
            _ => fail(&e),
        };
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(taken)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(taken)?;
        conn.execute_batch(SCHEMA).map_err(taken)?;
        Ok(AnswerFile {
            conn: Arc::new(Mutex::new(Some(conn))),
            path: Arc::new(path.to_owned()),
        })
    }

    /// The answers younger than `retention`, oldest first; older ones are deleted.
    pub(super) fn load(&self, retention: Duration) -> Result<Vec<Kept>, String> {
        let guard = lock(&self.conn);
        let Some(conn) = guard.as_ref() else {
            return Ok(Vec::new());
        };
        let now = millis(SystemTime::now());
        let oldest = now.saturating_sub(i64::try_from(retention.as_millis()).unwrap_or(i64::MAX));
        let fail = |e: rusqlite::Error| format!("{}: {e}", self.path.display());
        conn.execute("DELETE FROM answers WHERE at_ms < ?1", [oldest])
            .map_err(fail)?;
        let mut statement = conn
            .prepare(
                "SELECT key, fingerprint, status, body, request_id, at_ms FROM answers \
                 ORDER BY at_ms, rowid",
            )
            .map_err(fail)?;
        let rows = statement
            .query_map([], |r| {
                let fingerprint: Vec<u8> = r.get(1)?;
                let status: u16 = r.get(2)?;
                let body: Vec<u8> = r.get(3)?;
                let at: i64 = r.get(5)?;
                Ok((
                    r.get::<_, String>(0)?,
                    fingerprint,
                    status,
                    body,
                    r.get(4)?,
                    at,
                ))
            })
            .map_err(fail)?;
        let mut kept = Vec::new();
        for row in rows {
            let (key, fingerprint, status, body, request_id, at) = row.map_err(fail)?;
            let (Ok(fingerprint), Ok(status)) = (
                <[u8; 32]>::try_from(fingerprint.as_slice()),
                StatusCode::from_u16(status),
            ) else {
                tracing::warn!(key, "idempotency: skipping an unreadable kept answer");
                continue;
            };
            kept.push(Kept {
                key,
                fingerprint: Fingerprint(fingerprint),
                answer: StoredAnswer {
                    status,
                    body: Bytes::from(body),
                    request_id,
                },
                age: Duration::from_millis(u64::try_from(now.saturating_sub(at)).unwrap_or(0)),
            });
        }
        Ok(kept)
    }

    /// Writes `key`'s answer (before it is sent).
    pub(super) fn keep(
        &self,
        key: &str,
        fingerprint: &Fingerprint,
        answer: &StoredAnswer,
    ) -> Result<(), String> {
        let guard = lock(&self.conn);
        let Some(conn) = guard.as_ref() else {
            return Err(format!("{}: closed", self.path.display()));
        };
        conn.prepare_cached(
            "INSERT INTO answers (key, fingerprint, status, body, request_id, at_ms) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (key) DO UPDATE SET \
                 fingerprint = excluded.fingerprint, status = excluded.status, \
                 body = excluded.body, request_id = excluded.request_id, at_ms = excluded.at_ms",
        )
        .and_then(|mut s| {
            s.execute(params![
                key,
                &fingerprint.0[..],
                answer.status.as_u16(),
                &answer.body[..],
                answer.request_id,
                millis(SystemTime::now()),
            ])
        })
        .map(drop)
        .map_err(|e| format!("{}: {e}", self.path.display()))
    }

    /// Closes the file (releasing it for the next start); later answers are not kept.
    pub(crate) fn close(&self) {
        drop(lock(&self.conn).take());
    }

    /// Deletes the answers of `keys` (forgotten in memory).
    pub(super) fn forget(&self, keys: &[String]) {
        if keys.is_empty() {
            return;
        }
        let guard = lock(&self.conn);
        let Some(conn) = guard.as_ref() else { return };
        let result = conn
            .prepare_cached("DELETE FROM answers WHERE key = ?1")
            .and_then(|mut s| keys.iter().try_for_each(|k| s.execute([k]).map(drop)));
        if let Err(e) = result {
            tracing::warn!(path = %self.path.display(), error = %e, "idempotency: cannot delete forgotten answers");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Claim, IdempotencyStore};
    use super::*;

    fn answer(body: &str) -> StoredAnswer {
        StoredAnswer {
            status: StatusCode::ACCEPTED,
            body: Bytes::from(body.to_owned()),
            request_id: "req_1".to_owned(),
        }
    }

    fn answered(store: &IdempotencyStore, key: &str) {
        let fingerprint = Fingerprint([key.len() as u8; 32]);
        assert!(matches!(store.claim(key, fingerprint), Claim::Reserved));
        store.complete(key, answer(&format!("{{\"id\":\"{key}\"}}")));
    }

    fn replays(store: &IdempotencyStore, key: &str) -> bool {
        let fingerprint = Fingerprint([key.len() as u8; 32]);
        matches!(store.claim(key, fingerprint), Claim::Replay(a) if a.body == format!("{{\"id\":\"{key}\"}}"))
    }

    fn rows(path: &Path) -> Vec<String> {
        let conn = Connection::open(path).unwrap();
        let mut s = conn
            .prepare("SELECT key FROM answers ORDER BY key")
            .unwrap();
        s.query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    #[test]
    fn kept_answers_come_back_within_the_retention_and_bounds_and_forgotten_ones_leave_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = answer_path(dir.path(), "served-demo");
        let day = Duration::from_secs(86_400);
        {
            let store = IdempotencyStore::new(day, 2, 1 << 20)
                .with_file(AnswerFile::open(&path).unwrap())
                .unwrap();
            for key in ["k1", "k22", "k333"] {
                answered(&store, key);
            }
            // Two entries at most: the oldest answer went, from memory and from the file.
            assert!(replays(&store, "k22") && replays(&store, "k333"));
        }
        assert_eq!(rows(&path), ["k22", "k333"]);
        {
            let store = IdempotencyStore::new(day, 2, 1 << 20)
                .with_file(AnswerFile::open(&path).unwrap())
                .unwrap();
            assert!(
                replays(&store, "k22") && replays(&store, "k333"),
                "kept across the restart"
            );
            assert!(matches!(
                store.claim("k22", Fingerprint([9; 32])),
                Claim::Conflict(_)
            ));
        }
        // An answer older than the retention is not loaded and is deleted.
        let two_days_ago = millis(SystemTime::now() - 2 * day);
        Connection::open(&path)
            .unwrap()
            .execute(
                "UPDATE answers SET at_ms = ?1 WHERE key = 'k22'",
                [two_days_ago],
            )
            .unwrap();
        let store = IdempotencyStore::new(day, 10, 1 << 20)
            .with_file(AnswerFile::open(&path).unwrap())
            .unwrap();
        assert!(!replays(&store, "k22") && replays(&store, "k333"));
        drop(store);
        assert_eq!(rows(&path), ["k22", "k333"].map(str::to_owned)[1..]);
    }

    #[test]
    fn a_second_process_on_the_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = answer_path(dir.path(), "builtin-email");
        let first = IdempotencyStore::new(Duration::from_secs(60), 10, 1 << 20)
            .with_file(AnswerFile::open(&path).unwrap())
            .unwrap();
        answered(&first, "k1");
        let err = AnswerFile::open(&path).unwrap_err();
        assert!(err.contains("in use"), "{err}");
    }
}
