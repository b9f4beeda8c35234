//! The machine-wide host ledger: each host's politeness state (when it was
//! last asked, when it may next be asked, how often today, the Crawl-delay
//! `audit` last read) shared by every cityvibe process on the machine,
//! whatever database it stores into (P7, P8, P10, P14).
//!
//! It lives in a state directory (`--state-dir`, `CITYVIBE_STATE_DIR`, else
//! `$XDG_STATE_HOME/cityvibe`, else `~/.local/state/cityvibe`), not beside a
//! database: two databases still talk to one host. A request's moment is
//! reserved here, durably, BEFORE it is sent, in one `BEGIN IMMEDIATE`
//! transaction that re-checks the delay, the not-before time and the daily
//! cap: two processes cannot both take the same slot, and a process killed
//! mid-request leaves its reservation behind, so the next waits the full
//! delay from it (plus a second for the dead request to have reached the host). While the exchange runs, a per-host file lock tells other
//! processes the host is busy; the OS releases it if the process dies.
//!
//! Not for: deciding what to fetch (the scheduler) or the per-database fetch
//! log (store::fetchlog), which is the record of what was done.

use anyhow::{Context, Result};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long after its reservation a request is taken to reach the host when
/// its process died before saying when the exchange ended: opening a
/// connection and sending a request line. Counted only for a request whose
/// end was never recorded (P8).
pub const SEND_MARGIN_MS: i64 = 1000;

/// The longest a host can keep us away (a Retry-After beyond sense is capped, P10).
pub const MAX_NOT_BEFORE: Duration = Duration::from_secs(7 * 24 * 3600);

/// The state directory: `--state-dir`/`CITYVIBE_STATE_DIR` (given), else
/// `$XDG_STATE_HOME/cityvibe`, else `$HOME/.local/state/cityvibe`.
pub fn state_dir(given: Option<&Path>) -> Result<PathBuf> {
    if let Some(dir) = given {
        return Ok(dir.to_path_buf());
    }
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(xdg) = env("XDG_STATE_HOME") {
        return Ok(xdg.join("cityvibe"));
    }
    if let Some(home) = env("HOME") {
        return Ok(home.join(".local/state/cityvibe"));
    }
    anyhow::bail!("no state directory for the host ledger: pass --state-dir DIR or set CITYVIBE_STATE_DIR (or HOME)")
}

/// What the ledger knows of one host.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HostEntry {
    /// The latest of the last reservation and the end of the last exchange
    /// (ms); for a request whose end was never recorded (its process died),
    /// the reservation plus [`SEND_MARGIN_MS`].
    pub last_request_ms: Option<i64>,
    /// No request before this (a Retry-After remembered, P10).
    pub not_before_ms: Option<i64>,
    pub not_before_why: Option<String>,
    /// robots.txt's Crawl-delay for CityVibeBot (or `*`) as `audit` last read it.
    pub crawl_delay_ms: Option<i64>,
    pub crawl_delay_seen_ms: Option<i64>,
}

/// The answer to asking for a request's slot.
#[derive(Debug, Clone, PartialEq)]
pub enum Reservation {
    /// Recorded: send now.
    Reserved,
    /// Not yet (another process took a slot meanwhile): ask again at this time.
    NotBefore(i64),
    /// The daily cap is used up (requests in the last 24 h).
    CapReached(u32),
}

/// The ledger: one SQLite file in the state directory, and a lock file per host.
pub struct Ledger {
    conn: Connection,
    dir: PathBuf,
}

/// Held while a request to the host is on the wire.
pub struct HostLock {
    _file: File,
}

impl Ledger {
    /// Open (creating) the ledger in `dir`.
    pub fn open(dir: &Path) -> Result<Ledger> {
        let fail = || format!("opening the host ledger in {} (set --state-dir or CITYVIBE_STATE_DIR to a writable folder)", dir.display());
        std::fs::create_dir_all(dir.join("hosts")).with_context(fail)?;
        // Setting WAL and creating the tables take write locks that SQLite
        // does not wait for (a lock upgrade answers "database is locked" at
        // once): two processes opening a new ledger together would fail one.
        // So the set-up itself is done one process at a time, under a lock
        // the OS releases if the process dies.
        let setup =
            File::options().create(true).truncate(false).write(true).open(dir.join("hosts").join(".setup.lock")).with_context(fail)?;
        setup.lock().with_context(fail)?;
        let conn = Connection::open(dir.join("hosts.db")).with_context(fail)?;
        conn.busy_timeout(Duration::from_secs(10)).with_context(fail)?;
        conn.pragma_update(None, "journal_mode", "WAL").with_context(fail)?;
        // WAL with NORMAL: a committed reservation survives the process being
        // killed (the case that matters, P8); after a power loss the machine's
        // reboot outlasts any host's delay anyway, and no fsync per request
        // slows the interleaving down.
        conn.pragma_update(None, "synchronous", "NORMAL").with_context(fail)?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS hosts (
                 host TEXT PRIMARY KEY,
                 last_request_ms INTEGER,
                 in_flight_until_ms INTEGER,
                 not_before_ms INTEGER,
                 not_before_why TEXT,
                 crawl_delay_ms INTEGER,
                 crawl_delay_seen_ms INTEGER
             );
             CREATE TABLE IF NOT EXISTS requests (host TEXT NOT NULL, at_ms INTEGER NOT NULL);
             CREATE INDEX IF NOT EXISTS requests_host ON requests (host, at_ms);",
        )
        .with_context(fail)?;
        drop(setup);
        Ok(Ledger { conn, dir: dir.to_path_buf() })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The host's state (all empty for a host never seen).
    pub fn host(&self, host: &str) -> Result<HostEntry> {
        let row = self
            .conn
            .query_row(
                "SELECT max(coalesce(last_request_ms, 0), coalesce(in_flight_until_ms, 0)), not_before_ms, not_before_why, crawl_delay_ms,
                     crawl_delay_seen_ms FROM hosts WHERE host = ?1",
                [host],
                |r| {
                    Ok(HostEntry {
                        last_request_ms: r.get(0)?,
                        not_before_ms: r.get(1)?,
                        not_before_why: r.get(2)?,
                        crawl_delay_ms: r.get(3)?,
                        crawl_delay_seen_ms: r.get(4)?,
                    })
                },
            )
            .optional()
            .with_context(|| format!("reading {host}'s state from the host ledger"))?;
        Ok(row.unwrap_or_default())
    }

    /// Reserve the moment `now_ms` for a request to `host`, if its delay
    /// since the last request, its not-before time and its daily cap allow;
    /// recorded durably before returning [`Reservation::Reserved`] (P8).
    pub fn reserve(&self, host: &str, delay_ms: i64, daily_cap: u32, now_ms: i64) -> Result<Reservation> {
        let ctx = || format!("reserving a request to {host} in the host ledger");
        let tx = rusqlite::Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate).with_context(ctx)?;
        let (last, in_flight, not_before): (Option<i64>, Option<i64>, Option<i64>) = tx
            .query_row("SELECT last_request_ms, in_flight_until_ms, not_before_ms FROM hosts WHERE host = ?1", [host], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .optional()
            .with_context(ctx)?
            .unwrap_or((None, None, None));
        let ready = last.max(in_flight).map_or(0, |l| l.saturating_add(delay_ms)).max(not_before.unwrap_or(0));
        if ready > now_ms {
            return Ok(Reservation::NotBefore(ready));
        }
        let day_ago = now_ms - 24 * 3600 * 1000;
        let used: u32 = tx
            .query_row("SELECT count(*) FROM requests WHERE host = ?1 AND at_ms > ?2", params![host, day_ago], |r| r.get(0))
            .with_context(ctx)?;
        if used >= daily_cap {
            return Ok(Reservation::CapReached(used));
        }
        tx.execute(
            "INSERT INTO hosts (host, last_request_ms, in_flight_until_ms) VALUES (?1, ?2, ?3)
             ON CONFLICT (host) DO UPDATE SET last_request_ms = max(coalesce(last_request_ms, 0), excluded.last_request_ms),
                 in_flight_until_ms = excluded.in_flight_until_ms",
            params![host, now_ms, now_ms + SEND_MARGIN_MS],
        )
        .with_context(ctx)?;
        tx.execute("INSERT INTO requests (host, at_ms) VALUES (?1, ?2)", params![host, now_ms]).with_context(ctx)?;
        // A week of history is more than the daily cap needs.
        tx.execute("DELETE FROM requests WHERE host = ?1 AND at_ms < ?2", params![host, now_ms - 7 * 24 * 3600 * 1000])
            .with_context(ctx)?;
        tx.commit().with_context(ctx)?;
        Ok(Reservation::Reserved)
    }

    /// The exchange ended at `ended_ms`: the next delay counts from here.
    pub fn finished(&self, host: &str, ended_ms: i64) -> Result<()> {
        self.conn
            .execute(
                "INSERT INTO hosts (host, last_request_ms) VALUES (?1, ?2)
                 ON CONFLICT (host) DO UPDATE SET last_request_ms = max(coalesce(last_request_ms, 0), excluded.last_request_ms),
                     in_flight_until_ms = NULL",
                params![host, ended_ms],
            )
            .with_context(|| format!("recording the end of a request to {host} in the host ledger"))?;
        Ok(())
    }

    /// No request to `host` before `until_ms` (capped at [`MAX_NOT_BEFORE`]
    /// from `now_ms`); an earlier time never shortens a later one.
    pub fn set_not_before(&self, host: &str, until_ms: i64, now_ms: i64, why: &str) -> Result<i64> {
        let until = until_ms.min(now_ms + MAX_NOT_BEFORE.as_millis() as i64);
        self.conn
            .execute(
                "INSERT INTO hosts (host, not_before_ms, not_before_why) VALUES (?1, ?2, ?3)
                 ON CONFLICT (host) DO UPDATE SET
                     not_before_why = CASE WHEN coalesce(not_before_ms, 0) < excluded.not_before_ms THEN excluded.not_before_why ELSE not_before_why END,
                     not_before_ms = max(coalesce(not_before_ms, 0), excluded.not_before_ms)",
                params![host, until, why],
            )
            .with_context(|| format!("recording {host}'s not-before time in the host ledger"))?;
        Ok(until)
    }

    /// What `audit` read in robots.txt: the Crawl-delay for us, or none.
    pub fn set_crawl_delay(&self, host: &str, delay: Option<Duration>, now_ms: i64) -> Result<()> {
        let ms = delay.map(|d| d.as_millis().min(i64::MAX as u128) as i64);
        self.conn
            .execute(
                "INSERT INTO hosts (host, crawl_delay_ms, crawl_delay_seen_ms) VALUES (?1, ?2, ?3)
                 ON CONFLICT (host) DO UPDATE SET crawl_delay_ms = excluded.crawl_delay_ms, crawl_delay_seen_ms = excluded.crawl_delay_seen_ms",
                params![host, ms, now_ms],
            )
            .with_context(|| format!("recording {host}'s Crawl-delay in the host ledger"))?;
        Ok(())
    }

    /// Requests reserved for `host` in the 24 h before `now_ms`: what the
    /// daily cap counts (read only; the source gate asks it, issue 22 item 2).
    pub fn requests_in_last_day(&self, host: &str, now_ms: i64) -> Result<u32> {
        self.conn
            .query_row("SELECT count(*) FROM requests WHERE host = ?1 AND at_ms > ?2", params![host, now_ms - 24 * 3600 * 1000], |r| {
                r.get(0)
            })
            .with_context(|| format!("counting {host}'s requests of the last 24 h in the host ledger"))
    }

    /// Take the host's lock for one exchange; `None` while another process holds it.
    pub fn lock_host(&self, host: &str) -> Result<Option<HostLock>> {
        // A host name is letters, digits, dots, dashes (and brackets/colons for IPv6).
        let name: String = host.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '_' }).collect();
        let path = self.dir.join("hosts").join(format!("{name}.lock"));
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("opening the host lock {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(HostLock { _file: file })),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => Err(anyhow::Error::new(e).context(format!("locking {}", path.display()))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Two runs starting together on a new state folder both get the ledger
    // (seen failing: "database is locked" for one of two processes, P8).
    #[test]
    fn a_new_ledger_opened_by_many_at_once_opens_for_all() {
        for _ in 0..10 {
            let dir = tempfile::tempdir().unwrap();
            let opened: Vec<_> = (0..6)
                .map(|_| {
                    let d = dir.path().to_path_buf();
                    std::thread::spawn(move || Ledger::open(&d).map(|_| ()).map_err(|e| format!("{e:#}")))
                })
                .collect();
            for t in opened {
                t.join().unwrap().unwrap();
            }
        }
    }

    // P8: a slot is taken once; the delay counts from the reservation and
    // from the exchange's end, whichever is later.
    #[test]
    fn reservations_keep_the_delay_and_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let l = Ledger::open(dir.path()).unwrap();
        assert_eq!(l.reserve("h", 1000, 2, 10_000).unwrap(), Reservation::Reserved);
        // Its end not yet recorded (or its process dead): the send margin counts too.
        assert_eq!(l.reserve("h", 1000, 2, 10_500).unwrap(), Reservation::NotBefore(11_000 + SEND_MARGIN_MS));
        l.finished("h", 10_800).unwrap();
        assert_eq!(l.reserve("h", 1000, 2, 11_000).unwrap(), Reservation::NotBefore(11_800));
        assert_eq!(l.reserve("h", 1000, 2, 11_800).unwrap(), Reservation::Reserved);
        assert_eq!(l.reserve("h", 1000, 2, 20_000).unwrap(), Reservation::CapReached(2));
        // Another process (another connection) sees the same state.
        let other = Ledger::open(dir.path()).unwrap();
        assert_eq!(other.host("h").unwrap().last_request_ms, Some(11_800 + SEND_MARGIN_MS));
    }

    // P10: a not-before time is capped at a week and never shortened.
    #[test]
    fn not_before_is_capped_and_never_shortened() {
        let dir = tempfile::tempdir().unwrap();
        let l = Ledger::open(dir.path()).unwrap();
        let week = MAX_NOT_BEFORE.as_millis() as i64;
        assert_eq!(l.set_not_before("h", i64::MAX, 0, "far").unwrap(), week);
        l.set_not_before("h", 5, 0, "near").unwrap();
        let e = l.host("h").unwrap();
        assert_eq!((e.not_before_ms, e.not_before_why.as_deref()), (Some(week), Some("far")));
        assert_eq!(l.reserve("h", 0, 10, week - 1).unwrap(), Reservation::NotBefore(week));
    }

    #[test]
    fn a_host_lock_is_exclusive_until_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let l = Ledger::open(dir.path()).unwrap();
        let held = l.lock_host("[::1]").unwrap().expect("free");
        assert!(l.lock_host("[::1]").unwrap().is_none());
        drop(held);
        assert!(l.lock_host("[::1]").unwrap().is_some());
    }
}
