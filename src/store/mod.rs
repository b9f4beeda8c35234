//! SQLite: the one file that holds events, translations, the fetch log, runs,
//! sources' state and takedowns. The only module that speaks SQL.
//!
//! WAL mode; migrations by `user_version`; each source's ingest is one
//! transaction (see [`ingest::SourceIngest`]), so a process killed mid-run
//! leaves every source in either its old or its new state.
//!
//! Below the config, the citations and every command: the store imports
//! only the leaves (`model`, `vocab`, `error`, `times`, `policy`), `parse`,
//! `correction` and the adapter interface (a manifest names its source).
//! What it needs from above comes in as an argument: the limits of a run
//! (`policy::WithdrawGuard`). It does not cite: listed events come back
//! uncited, and `citation` above fills in how each source is cited now.

pub mod corrections;
pub mod events;
pub mod fetchlog;
pub mod ingest;
pub mod memory;
pub mod optout;
pub mod report;
pub mod reports;
mod row;
pub mod runs;
mod schema;
pub mod takedowns;
pub mod translations;
#[cfg(test)]
mod vocab_in_sql;

use crate::clock::{Clock, SystemClock};
use anyhow::{Context, Result};
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Bytes per page of a database this store creates (SQLite's default is 4096).
const PAGE_SIZE: i64 = 16 * 1024;

/// An open database.
pub struct Store {
    pub(crate) conn: Connection,
    path: PathBuf,
    /// What dates the rows written (the machine's clock unless another is
    /// handed in, [`Store::with_clock`]).
    clock: Arc<dyn Clock + Send + Sync>,
}

/// A language is stored as its code.
impl rusqlite::ToSql for crate::lang::Lang {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(rusqlite::types::ToSqlOutput::from(self.as_str()))
    }
}

impl Store {
    /// Open (creating if needed) the database at `path` and bring its schema up to date.
    pub fn open(path: &Path) -> Result<Store> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| format!("creating the database folder {}", dir.display()))?;
        }
        let conn = Connection::open(path).with_context(|| format!("opening the database {}", path.display()))?;
        // The first statements are where a file that is no database shows it: name the file.
        let setup = |conn: &Connection| -> rusqlite::Result<()> {
            conn.busy_timeout(Duration::from_secs(10))?;
            // Only a new, empty file takes it (an existing one keeps its pages;
            // nothing to migrate). Fewer, fuller pages: on the generated 100k
            // feed the ingest writes 145 MB instead of 157 MB three times (WAL,
            // checkpoint read, checkpoint write) in a quarter of the calls,
            // 2.61 -> 2.38 CPU-s.
            conn.pragma_update(None, "page_size", PAGE_SIZE)?;
            conn.pragma_update(None, "journal_mode", "WAL")?;
            conn.pragma_update(None, "synchronous", "NORMAL")?;
            conn.pragma_update(None, "foreign_keys", "ON")
        };
        setup(&conn).map_err(|e| match e.sqlite_error_code() {
            // Said once (SQLite's own text repeats itself), with what to check;
            // still a database failure (exit 4): a damaged database looks the same.
            Some(rusqlite::ErrorCode::NotADatabase) => anyhow::anyhow!(
                "{} is not a database, or is damaged: check --db (or CITYVIBE_DB) names your cityvibe database",
                path.display()
            ),
            _ => anyhow::Error::new(e).context(format!("opening the database {}", path.display())),
        })?;
        let mut store = Store { conn, path: path.to_path_buf(), clock: Arc::new(SystemClock) };
        store.migrate().with_context(|| format!("migrating the database {}", path.display()))?;
        Ok(store)
    }

    /// This store, dating what it writes by `clock`.
    pub fn with_clock(mut self, clock: Arc<dyn Clock + Send + Sync>) -> Store {
        self.clock = clock;
        self
    }

    /// Now by the store's clock, in milliseconds since the Unix epoch, the
    /// unit of every timestamp stored.
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Open a database that must already exist (read commands: `events`, `runs`,
    /// `export`, `holdings`…): a missing file is a usage error naming the path,
    /// never a new empty database in the wrong folder.
    pub fn open_existing(path: &Path) -> Result<Store> {
        Store::require(path)?;
        Store::open(path)
    }

    /// A usage error unless a database file is at `path`: for commands that
    /// need stored events, checked before anything (the run lock included)
    /// creates a file there.
    pub fn require(path: &Path) -> Result<()> {
        if !path.is_file() {
            return Err(crate::error::usage(format!(
                "no database at {}: run `cityvibe run` first or pass --db (or set CITYVIBE_DB)",
                path.display()
            )));
        }
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn migrate(&mut self) -> Result<()> {
        let version: i64 = self.conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        let known = schema::MIGRATIONS.len() as i64;
        anyhow::ensure!(
            version <= known,
            "the database has schema version {version}, newer than this cityvibe knows ({known}): upgrade cityvibe"
        );
        for (i, sql) in schema::MIGRATIONS.iter().enumerate().skip(version as usize) {
            let tx = self.conn.transaction()?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
            tx.commit()?;
        }
        Ok(())
    }

    /// The schema version (number of migrations applied).
    pub fn schema_version(&self) -> Result<i64> {
        Ok(self.conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// Direct access for read-only reports and tests.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page_size(store: &Store) -> i64 {
        store.connection().pragma_query_value(None, "page_size", |r| r.get(0)).unwrap()
    }

    #[test]
    fn a_new_database_gets_the_store_page_size() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(page_size(&Store::open(&dir.path().join("t.db")).unwrap()), PAGE_SIZE);
    }

    /// A database made before the page size was set keeps its pages and its
    /// rows, and takes new ones.
    #[test]
    fn an_existing_database_keeps_its_page_size_and_rows() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            let conn = Connection::open(&path).unwrap();
            conn.pragma_update(None, "page_size", 4096).unwrap();
            conn.pragma_update(None, "journal_mode", "WAL").unwrap();
            conn.execute_batch("CREATE TABLE kept (x TEXT); INSERT INTO kept VALUES ('before');").unwrap();
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(page_size(&store), 4096);
        store.connection().execute("INSERT INTO kept VALUES ('after')", []).unwrap();
        let rows: Vec<String> = store
            .connection()
            .prepare("SELECT x FROM kept ORDER BY rowid")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(rows, ["before", "after"]);
        assert_eq!(store.schema_version().unwrap(), schema::MIGRATIONS.len() as i64);
    }
}
