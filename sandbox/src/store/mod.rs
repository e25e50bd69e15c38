//! The sandbox's persistence (`tidings-sandbox --data DIR`): one SQLite file holding the inbox's
//! records, the service keys and the services' own state (emails and their statuses,
//! templates, contacts, lists, suppressions, messages, webhook endpoints), so a restart keeps
//! all of it. One process at a time: [`Db::open`] takes an OS lock on `DIR/LOCK_NAME` and
//! refuses a directory another process holds, naming its pid.
//!
//! ```no_run
//! # fn demo() -> Result<(), tidings_sandbox::store::StoreError> {
//! let db = tidings_sandbox::store::Db::open(std::path::Path::new("./sandbox-data"))?;
//! db.set_key("email_api_key", "sk_sandbox_0123")?;
//! assert_eq!(db.key("email_api_key")?.as_deref(), Some("sk_sandbox_0123"));
//! # Ok(()) }
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};

use crate::records::{
    ApiCallRecord, CapturedEmail, CapturedMessage, RealtimeRecord, WebhookRecord,
};

/// The database file's name inside the data directory.
pub const FILE_NAME: &str = "tidings-sandbox.sqlite3";
/// The lock file's name inside the data directory (holds the owner's pid while it runs).
pub const LOCK_NAME: &str = "tidings-sandbox.lock";

/// A failure of the store.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The data directory cannot be created.
    #[error("cannot create the data directory {path}: {source}")]
    Dir {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Another process holds the data directory.
    #[error(
        "the data directory {path} is in use by another tidings-sandbox ({holder}); stop it or \
         give another --data"
    )]
    Locked {
        /// The directory.
        path: PathBuf,
        /// `pid N` as the holder wrote it, or `an unknown process`.
        holder: String,
    },
    /// The lock file cannot be opened or locked.
    #[error("cannot lock the data directory {path}: {source}")]
    Lock {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// SQLite failed.
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A stored record cannot be read back.
    #[error("a stored record is unreadable: {0}")]
    Decode(#[from] serde_json::Error),
}

/// An open database.
pub struct Db {
    conn: Connection,
    path: PathBuf,
    // Held (locked) as long as the database is open; the OS releases it if the process dies.
    _lock: std::fs::File,
}

impl fmt::Debug for Db {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Db").field("path", &self.path).finish()
    }
}

/// Everything the database held at start.
#[derive(Debug, Default)]
pub(crate) struct Loaded {
    pub(crate) max_seq: u64,
    pub(crate) emails: Vec<CapturedEmail>,
    pub(crate) raws: BTreeMap<String, Vec<u8>>,
    pub(crate) messages: Vec<CapturedMessage>,
    pub(crate) webhooks: Vec<WebhookRecord>,
    pub(crate) secrets: BTreeMap<String, String>,
    pub(crate) realtime: Vec<RealtimeRecord>,
    pub(crate) calls: Vec<ApiCallRecord>,
    /// The services' state: service → rows `(kind, id, doc)` in creation order.
    pub(crate) state: BTreeMap<String, Vec<StateRow>>,
}

/// One stored object of a service's state: its kind (`email`, `template`...), id and JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StateRow {
    pub(crate) kind: String,
    pub(crate) id: String,
    pub(crate) doc: String,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS keys (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    doc TEXT NOT NULL,
    blob BLOB,
    PRIMARY KEY (kind, id)
);
CREATE INDEX IF NOT EXISTS records_seq ON records (kind, seq);
CREATE TABLE IF NOT EXISTS state (
    service TEXT NOT NULL,
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (service, kind, id)
);
";

/// Takes the data directory's lock, or says which process holds it.
fn lock(dir: &Path) -> Result<std::fs::File, StoreError> {
    use std::io::{Read, Seek, Write};
    let lock_error = |source| StoreError::Lock {
        path: dir.to_owned(),
        source,
    };
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(dir.join(LOCK_NAME))
        .map_err(lock_error)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            let holder = if holder.starts_with("pid ") && holder.len() < 64 {
                holder.to_owned()
            } else {
                "an unknown process".to_owned()
            };
            return Err(StoreError::Locked {
                path: dir.to_owned(),
                holder,
            });
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(lock_error(e)),
    }
    file.set_len(0).map_err(lock_error)?;
    file.rewind().map_err(lock_error)?;
    write!(file, "pid {}", std::process::id()).map_err(lock_error)?;
    Ok(file)
}

/// Creates `dir` and its missing parents, readable by this user only (mode 0700 on Unix): the
/// data directory holds the sandbox's keys, webhook secrets and captured emails. A directory
/// that exists is left as it is.
pub(crate) fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Whether users other than the owner may enter `dir` (Unix: any group or other permission).
pub(crate) fn open_to_others(dir: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::metadata(dir).is_ok_and(|m| m.permissions().mode() & 0o077 != 0)
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        false
    }
}

impl Db {
    /// Opens (creating when needed) the database in `dir` (created too).
    ///
    /// # Errors
    ///
    /// When the directory or the file cannot be created or opened.
    pub fn open(dir: &Path) -> Result<Db, StoreError> {
        create_private_dir(dir).map_err(|source| StoreError::Dir {
            path: dir.to_owned(),
            source,
        })?;
        if open_to_others(dir) {
            tracing::warn!(
                path = %dir.display(),
                "the data directory can be read by other users of this machine, and it holds the \
                 sandbox's keys, webhook secrets and captured emails: `chmod 700` it (a data \
                 directory the sandbox creates is private)"
            );
        }
        let lock = lock(dir)?;
        let path = dir.join(FILE_NAME);
        let conn = Connection::open(&path)?;
        // WAL: readers never wait for the writer. NORMAL sync: a committed transaction survives
        // the process being killed (it is in the WAL, handed to the OS); only a power cut can
        // lose the last ones. One writer thread commits groups of changes (see the inbox).
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        Ok(Db {
            conn,
            path,
            _lock: lock,
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A stored key (`email_api_key`...).
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub fn key(&self, name: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT value FROM keys WHERE name = ?1", [name], |r| {
                r.get(0)
            })
            .optional()?)
    }

    /// Stores a key.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub fn set_key(&self, name: &str, value: &str) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO keys (name, value) VALUES (?1, ?2)
             ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            params![name, value],
        )?;
        Ok(())
    }

    fn put(
        &self,
        kind: &str,
        id: &str,
        seq: u64,
        doc: &impl serde::Serialize,
        blob: Option<&[u8]>,
    ) -> Result<(), StoreError> {
        let doc = serde_json::to_string(doc)?;
        // Prepared once per connection: every email and message passes here.
        self.conn
            .prepare_cached(
                "INSERT INTO records (kind, id, seq, doc, blob) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (kind, id) DO UPDATE SET seq = excluded.seq, doc = excluded.doc,
                 blob = excluded.blob",
            )?
            .execute(params![
                kind,
                id,
                i64::try_from(seq).unwrap_or(i64::MAX),
                doc,
                blob
            ])?;
        Ok(())
    }

    fn update(&self, kind: &str, id: &str, doc: &impl serde::Serialize) -> Result<(), StoreError> {
        let doc = serde_json::to_string(doc)?;
        self.conn
            .prepare_cached("UPDATE records SET doc = ?3 WHERE kind = ?1 AND id = ?2")?
            .execute(params![kind, id, doc])?;
        Ok(())
    }

    /// Starts a transaction (the inbox's writer groups writes).
    pub(crate) fn begin(&self) -> Result<(), StoreError> {
        Ok(self.conn.execute_batch("BEGIN")?)
    }

    /// Commits the open transaction.
    pub(crate) fn commit(&self) -> Result<(), StoreError> {
        Ok(self.conn.execute_batch("COMMIT")?)
    }

    /// Abandons the open transaction.
    pub(crate) fn rollback(&self) -> Result<(), StoreError> {
        Ok(self.conn.execute_batch("ROLLBACK")?)
    }

    pub(crate) fn put_email(&self, email: &CapturedEmail, raw: &[u8]) -> Result<(), StoreError> {
        self.put("email", &email.id, email.seq, email, Some(raw))
    }

    pub(crate) fn update_email(&self, email: &CapturedEmail) -> Result<(), StoreError> {
        self.update("email", &email.id, email)
    }

    pub(crate) fn put_message(&self, message: &CapturedMessage) -> Result<(), StoreError> {
        self.put("message", &message.id, message.seq, message, None)
    }

    pub(crate) fn update_message(&self, message: &CapturedMessage) -> Result<(), StoreError> {
        self.update("message", &message.id, message)
    }

    pub(crate) fn put_webhook(
        &self,
        hook: &WebhookRecord,
        secret: Option<&str>,
    ) -> Result<(), StoreError> {
        self.put(
            "webhook",
            &hook.id,
            hook.seq,
            hook,
            secret.map(str::as_bytes),
        )
    }

    pub(crate) fn update_webhook(&self, hook: &WebhookRecord) -> Result<(), StoreError> {
        self.update("webhook", &hook.id, hook)
    }

    pub(crate) fn put_realtime(&self, record: &RealtimeRecord) -> Result<(), StoreError> {
        self.put("realtime", &record.id, record.seq, record, None)
    }

    pub(crate) fn put_call(&self, record: &ApiCallRecord) -> Result<(), StoreError> {
        self.put("call", &record.id, record.seq, record, None)
    }

    /// Stores (`Some`) or removes (`None`) one object of a service's state.
    pub(crate) fn put_state(
        &self,
        service: &str,
        kind: &str,
        id: &str,
        doc: Option<&str>,
    ) -> Result<(), StoreError> {
        match doc {
            Some(doc) => self
                .conn
                .prepare_cached(
                    "INSERT INTO state (service, kind, id, doc) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (service, kind, id) DO UPDATE SET doc = excluded.doc",
                )?
                .execute(params![service, kind, id, doc])?,
            None => self
                .conn
                .prepare_cached("DELETE FROM state WHERE service = ?1 AND kind = ?2 AND id = ?3")?
                .execute(params![service, kind, id])?,
        };
        Ok(())
    }

    pub(crate) fn delete_many(&self, items: &[(&str, String)]) -> Result<(), StoreError> {
        let mut statement = self
            .conn
            .prepare_cached("DELETE FROM records WHERE kind = ?1 AND id = ?2")?;
        for (kind, id) in items {
            statement.execute(params![kind, id])?;
        }
        Ok(())
    }

    pub(crate) fn clear(&self, kind: Option<&str>) -> Result<(), StoreError> {
        match kind {
            Some(kind) => self
                .conn
                .execute("DELETE FROM records WHERE kind = ?1", [kind])?,
            None => self.conn.execute("DELETE FROM records", [])?,
        };
        Ok(())
    }

    /// Every record, oldest first; an unreadable one (a newer format, a damaged row) is
    /// skipped with a warning rather than failing the start.
    pub(crate) fn load(&self) -> Result<Loaded, StoreError> {
        let mut loaded = Loaded::default();
        let mut statement = self
            .conn
            .prepare("SELECT kind, id, seq, doc, blob FROM records ORDER BY seq")?;
        let mut state = self
            .conn
            .prepare("SELECT service, kind, id, doc FROM state ORDER BY rowid")?;
        let rows = state.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                StateRow {
                    kind: r.get(1)?,
                    id: r.get(2)?,
                    doc: r.get(3)?,
                },
            ))
        })?;
        for row in rows {
            let (service, row) = row?;
            loaded.state.entry(service).or_default().push(row);
        }
        let rows = statement.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, Option<Vec<u8>>>(4)?,
            ))
        })?;
        for row in rows {
            let (kind, id, seq, doc, blob) = row?;
            loaded.max_seq = loaded.max_seq.max(u64::try_from(seq).unwrap_or(0));
            let result = match kind.as_str() {
                "email" => serde_json::from_str(&doc).map(|e| {
                    loaded.raws.insert(id.clone(), blob.unwrap_or_default());
                    loaded.emails.push(e);
                }),
                "message" => serde_json::from_str(&doc).map(|m| loaded.messages.push(m)),
                "webhook" => serde_json::from_str(&doc).map(|w| {
                    // Realtime deliveries keep no secret (their service signs again).
                    if let Some(secret) = blob.and_then(|b| String::from_utf8(b).ok()) {
                        loaded.secrets.insert(id.clone(), secret);
                    }
                    loaded.webhooks.push(w);
                }),
                "realtime" => serde_json::from_str(&doc).map(|r| loaded.realtime.push(r)),
                "call" => serde_json::from_str(&doc).map(|c| loaded.calls.push(c)),
                _ => Ok(()),
            };
            if let Err(e) = result {
                tracing::warn!(kind, id, error = %e, "skipping an unreadable stored record");
            }
        }
        Ok(loaded)
    }
}

#[cfg(all(test, unix))]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn a_data_directory_the_sandbox_creates_is_private_to_its_user() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("parent").join("data");
        let db = Db::open(&dir).unwrap();
        db.set_key("email_api_key", "sk_sandbox_1").unwrap();
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&root.path().join("parent")), 0o700);
        assert!(!open_to_others(&dir));
        // So are the folders the resource and idempotency stores make inside it.
        create_private_dir(&dir.join("resources")).unwrap();
        assert_eq!(mode(&dir.join("resources")), 0o700);
    }

    #[test]
    fn an_existing_directory_is_left_as_it_is_and_said_to_be_open_to_others() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("shared");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let db = Db::open(&dir).unwrap();
        db.set_key("k", "v").unwrap();
        assert_eq!(mode(&dir), 0o755, "not changed behind the user's back");
        assert!(open_to_others(&dir));
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        assert!(!open_to_others(&dir));
    }
}
