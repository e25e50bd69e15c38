//! The resource store's durable mode (`--data DIR`): every change of a [`Resources`] store is
//! committed to its own SQLite file before it is answered (group commit: see `group.rs`);
//! [`Resources::open`] loads the file back at start, within the store's bounds.
//!
//! One file per store (`DIR/resources/served-<service>.sqlite3` for a `--spec` served spec,
//! `DIR/resources/builtin-<service>.sqlite3` for a built-in service's generated default), not a
//! table in the inbox's database: each store has its own writer, which must not wait behind
//! the inbox writer's batches for SQLite's single write lock; two specs' collections cannot
//! mix; and one spec's state is reset by deleting one file. The file is opened in SQLite's
//! exclusive locking mode, so a second store (another process, or a second spec of the same
//! name) cannot open it and diverge from the first.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};

use super::*;

/// The folder of the resource stores' files inside the data directory.
pub const DIR_NAME: &str = "resources";

/// The file of the store named `name` (`served-<spec's service name>` or
/// `builtin-<service>`) in the data directory `data`: every character but ASCII letters,
/// digits, `-` and `_` becomes `_`.
pub fn store_path(data: &Path, name: &str) -> PathBuf {
    let safe: String = name
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

/// Why a durable store cannot be opened.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpenError {
    /// The folder cannot be created.
    #[error("cannot create {path}: {source}")]
    Dir {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Another store holds the file (another process, or a second service of the same name).
    #[error(
        "the resource store {path} is in use (another tidings-sandbox on this data directory, \
         or two served specs with the same service name)"
    )]
    InUse {
        /// The file.
        path: PathBuf,
    },
    /// The thread that writes the file cannot be started.
    #[error("the resource store {path}: cannot start its writer: {source}")]
    Writer {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// SQLite failed.
    #[error("the resource store {path}: SQLite: {source}")]
    Sqlite {
        /// The file.
        path: PathBuf,
        /// Why.
        source: rusqlite::Error,
    },
}

/// One change to commit.
#[derive(Debug, Clone)]
pub(super) enum Change {
    /// Stores (inserts or replaces) an item; `next_id` also stores the id counter.
    Put {
        collection: String,
        id: String,
        doc: String,
        next_id: Option<u64>,
    },
    /// Removes an item, and the whole of each collection in `nested` (those under it).
    Delete {
        collection: String,
        id: String,
        nested: Vec<String>,
    },
    /// Stores a value kept with the store (a served spec's credentials).
    Setting { name: String, value: String },
    /// Several changes one request made (a list created, items deleted by their ids),
    /// committed in the same transaction: all of them or none.
    Batch(Vec<Change>),
}

/// Where a durable store commits its changes (SQLite, or a failing one in tests).
pub(super) trait Journal: Send {
    /// Commits `changes`, in order, all or none: `Ok` only once they are on disk.
    fn commit(&mut self, changes: &[&Change]) -> Result<(), String>;
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS items (
    collection TEXT NOT NULL,
    id TEXT NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (collection, id)
);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
";

/// A store's SQLite file.
pub(super) struct Sqlite {
    conn: Connection,
}

/// What a store's file holds.
pub(super) struct Stored {
    /// The items, in the order they were first stored.
    pub(super) rows: Vec<Row>,
    /// The id counter.
    pub(super) next_id: u64,
    /// The values kept with the store.
    pub(super) settings: BTreeMap<String, String>,
}

/// One stored item.
pub(super) struct Row {
    pub(super) collection: String,
    pub(super) id: String,
    pub(super) doc: String,
}

impl Sqlite {
    /// Opens (creating when needed) the file at `path` and takes it for this process.
    pub(super) fn open(path: &Path) -> Result<Sqlite, OpenError> {
        if let Some(dir) = path.parent() {
            crate::store::create_private_dir(dir).map_err(|source| OpenError::Dir {
                path: dir.to_owned(),
                source,
            })?;
        }
        let sqlite = |source| OpenError::Sqlite {
            path: path.to_owned(),
            source,
        };
        let conn = Connection::open(path).map_err(sqlite)?;
        // Nobody else writes this file: a lock held elsewhere is another store, not a wait.
        conn.busy_timeout(std::time::Duration::from_millis(100))
            .map_err(sqlite)?;
        // Exclusive: the first transaction takes the file's lock and keeps it while the
        // connection lives (the OS drops it if the process dies, even by `kill -9`).
        conn.pragma_update(None, "locking_mode", "EXCLUSIVE")
            .map_err(sqlite)?;
        let busy = |e: rusqlite::Error| match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
                OpenError::InUse {
                    path: path.to_owned(),
                }
            }
            _ => sqlite(e),
        };
        // WAL, synchronous NORMAL: as the inbox's database, a commit survives the process
        // being killed; a power cut may lose the last ones.
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(busy)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(busy)?;
        conn.execute_batch(SCHEMA).map_err(busy)?;
        Ok(Sqlite { conn })
    }

    /// Every item, oldest first, the id counter and the settings.
    pub(super) fn load(&self) -> rusqlite::Result<Stored> {
        let mut statement = self
            .conn
            .prepare("SELECT collection, id, doc FROM items ORDER BY rowid")?;
        let rows = statement
            .query_map([], |r| {
                Ok(Row {
                    collection: r.get(0)?,
                    id: r.get(1)?,
                    doc: r.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let next_id: Option<i64> = self
            .conn
            .query_row(
                "SELECT value FROM counters WHERE name = 'next_id'",
                [],
                |r| r.get(0),
            )
            .optional()?;
        let settings = self
            .conn
            .prepare("SELECT name, value FROM settings")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<BTreeMap<String, String>>>()?;
        Ok(Stored {
            rows,
            next_id: next_id.and_then(|n| u64::try_from(n).ok()).unwrap_or(0),
            settings,
        })
    }

    fn apply(&mut self, changes: &[&Change]) -> rusqlite::Result<()> {
        let tx = self.conn.transaction()?;
        // The id counter only grows: written once per batch, at its largest.
        let mut counter = None;
        for change in changes {
            write(&tx, change, &mut counter)?;
        }
        if let Some(n) = counter {
            tx.prepare_cached(
                "INSERT INTO counters (name, value) VALUES ('next_id', ?1)
                 ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            )?
            .execute([i64::try_from(n).unwrap_or(i64::MAX)])?;
        }
        tx.commit()
    }

    /// Caps the file at `extra` pages more than it has now (SQLite's `max_page_count`): a
    /// write past it fails as on a full disk. For tests.
    #[cfg(test)]
    pub(super) fn cap_pages(&self, extra: u64) {
        let pages: i64 = self
            .conn
            .query_row("PRAGMA page_count", [], |r| r.get(0))
            .unwrap_or(0);
        let cap = pages.saturating_add(i64::try_from(extra).unwrap_or(0));
        let _ = self.conn.pragma_update(None, "max_page_count", cap);
    }
}

/// Writes `change` in `tx`; `counter` keeps the largest id counter to store.
fn write(
    tx: &rusqlite::Transaction<'_>,
    change: &Change,
    counter: &mut Option<u64>,
) -> rusqlite::Result<()> {
    match change {
        Change::Put {
            collection,
            id,
            doc,
            next_id,
        } => {
            tx.prepare_cached(
                "INSERT INTO items (collection, id, doc) VALUES (?1, ?2, ?3)
                 ON CONFLICT (collection, id) DO UPDATE SET doc = excluded.doc",
            )?
            .execute(params![collection, id, doc])?;
            *counter = (*counter).max(*next_id);
        }
        Change::Delete {
            collection,
            id,
            nested,
        } => {
            tx.prepare_cached("DELETE FROM items WHERE collection = ?1 AND id = ?2")?
                .execute(params![collection, id])?;
            for name in nested {
                tx.prepare_cached("DELETE FROM items WHERE collection = ?1")?
                    .execute(params![name])?;
            }
        }
        Change::Setting { name, value } => {
            tx.prepare_cached(
                "INSERT INTO settings (name, value) VALUES (?1, ?2)
                 ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            )?
            .execute(params![name, value])?;
        }
        Change::Batch(changes) => {
            for change in changes {
                write(tx, change, counter)?;
            }
        }
    }
    Ok(())
}

impl Journal for Sqlite {
    fn commit(&mut self, changes: &[&Change]) -> Result<(), String> {
        self.apply(changes).map_err(|e| e.to_string())
    }
}

/// The counter behind an id this store made (`res_00000042`, or a UUID ending in the number),
/// so a store loaded from an older file without a counter still never makes a kept id again.
pub(super) fn id_number(id: &str) -> Option<u64> {
    if let Some(digits) = id.strip_prefix("res_") {
        return digits.parse().ok();
    }
    // An id made for a field shorter than `res_` and the number: digits only.
    if !id.is_empty() && id.len() <= 12 && id.bytes().all(|b| b.is_ascii_digit()) {
        return id.parse().ok();
    }
    let hex = id.strip_prefix("00000000-0000-4000-8000-")?;
    (hex.len() == 12)
        .then(|| u64::from_str_radix(hex, 16).ok())
        .flatten()
}

/// The answer to a change that could not be stored: 507, nothing kept.
pub(super) fn not_stored(why: &str) -> ServerError {
    ServerError::new(
        507,
        "insufficient_storage",
        format!(
            "the sandbox cannot store this in its data directory ({why}); nothing was kept, try \
             again once there is room"
        ),
    )
}
