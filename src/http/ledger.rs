//! The machine-wide host ledger: each host's politeness state (when it was
//! last asked, when it may next be asked, how often today, the Crawl-delay
//! `audit` last read) shared by every cityvibe process on the machine,
//! whatever database it stores into (P7, P8, P10, P14).
//!
//! Requests to real hosts are booked in the system ledger, in one fixed
//! folder per machine ([`SYSTEM_STATE_DIR`]), whatever HOME, XDG_STATE_HOME
//! or `--state-dir` say; a private ledger (`--state-dir`, else the XDG
//! state folder) serves `--mirror` runs only: tests, demos, staging. Not
//! beside a database: two databases still talk to one host. A request's
//! moment is reserved here, durably, BEFORE it is sent, in one
//! `BEGIN IMMEDIATE` transaction that re-checks the delay, the not-before
//! time and the daily cap: two processes cannot both take the same slot, and
//! a process killed mid-request leaves its reservation behind, so the next
//! waits the full delay from it (plus a second for the dead request to have
//! reached the host). While the exchange runs, a per-host file lock tells
//! other processes the host is busy; the OS releases it if the process dies.
//!
//! The ledger distrusts itself: a file deleted or
//! replaced under a running process, a ledger gone or emptied while the
//! folder's witness (`hosts/ledger-id`) says one was kept, and times no
//! clock could have written (far ahead of now) are errors, so the caller
//! sends nothing and says what happened (fail closed).
//!
//! This file holds the booking (reservations, ends, not-before times, the
//! daily count, the host locks); beside it, in `ledger/`: where the ledger
//! lives (`place.rs`), its opening and its checks of itself (`open.rs`),
//! and what a hold is and says (`holds.rs`).
//!
//! Not for: deciding what to fetch (the scheduler) or the per-database fetch
//! log (`fetchlog`, kept by the run's store), which is the record of what
//! was done.

use crate::clock::Uptime;
use anyhow::{Context, Result};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;

mod holds;
mod open;
mod place;
pub use holds::{HELD, MAX_NOT_BEFORE, held_for_a_no, held_message};
pub use place::{LedgerPlace, SYSTEM_STATE_DIR, lock_folder, place};

/// How long after its reservation a request is taken to reach the host when
/// its process died before saying when the exchange ended: opening a
/// connection and sending a request line. Counted only for a request whose
/// end was never recorded (P8).
pub const SEND_MARGIN_MS: i64 = 1000;

/// How far ahead of this machine's clock a recorded time may be before it is
/// taken for impossible (clock set back, ledger altered). Within it, a time
/// ahead only makes us wait longer, which is safe.
pub const CLOCK_SLACK_MS: i64 = 10 * 60 * 1000;

/// How many days of requests the ledger keeps: a year and a day, the
/// longest period `cityvibe report` draws.
pub const HISTORY_DAYS: i64 = 367;

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
    /// The last request (its reservation or its end, the later) by the
    /// machine's boot clock, which no step of the wall clock moves: a delay
    /// is waited by both clocks, so a clock set forward never shortens it.
    pub last_uptime: Option<Uptime>,
}

impl HostEntry {
    /// The wall-clock time (ms) at which `delay_ms` has passed since the
    /// last request by the boot clock, `now_ms` and `now_up` being now by
    /// each clock; `None` when the boot clock says nothing (another boot,
    /// no boot clock, no request recorded by it).
    pub fn ready_by_uptime(&self, delay_ms: i64, now_ms: i64, now_up: Option<&Uptime>) -> Option<i64> {
        let (last, now) = (self.last_uptime.as_ref()?, now_up?);
        if last.boot != now.boot {
            return None;
        }
        let left_us = last.us.saturating_add(delay_ms.saturating_mul(1000)).saturating_sub(now.us);
        // Rounded up: never a fraction of a millisecond short (P8).
        Some(now_ms.saturating_add((left_us.max(0) + 999) / 1000))
    }
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
    /// The ledger file's identity (device, inode) when opened: a file
    /// deleted or replaced later is caught before the next request.
    identity: (u64, u64),
}

/// Held while a request to the host is on the wire.
pub struct HostLock {
    file: File,
}

impl Drop for HostLock {
    /// Unlocked, not only closed: an `flock` belongs to the open file, and a
    /// process being started meanwhile by another thread holds a copy of
    /// every descriptor until it runs its program, so a close alone could
    /// leave the host "busy" to our own next request for that long (seen in
    /// the test suite under load: a redirect hop waited 600 ms more). Should
    /// the unlock fail, the close still frees it when the last copy goes:
    /// a longer wait, never a shorter one (P8).
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// The ledger's database at `path`, opened in WAL mode, its tables made
/// (here, beside the booking: the one place outside the store that opens
/// SQLite).
fn connect(path: &Path) -> Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(Duration::from_secs(10))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    // WAL with NORMAL: a committed reservation survives the process being
    // killed (the case that matters, P8); after a power loss the machine's
    // reboot outlasts any host's delay anyway, and no fsync per request
    // slows the interleaving down.
    conn.pragma_update(None, "synchronous", "NORMAL")?;
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
         CREATE INDEX IF NOT EXISTS requests_host ON requests (host, at_ms);
         CREATE TABLE IF NOT EXISTS ledger (id TEXT NOT NULL, created_ms INTEGER NOT NULL);",
    )?;
    // The boot clock's time of a host's last request (P8): added to a
    // ledger kept before it, which older binaries still read and write.
    let has_uptime: bool =
        conn.query_row("SELECT count(*) FROM pragma_table_info('hosts') WHERE name = 'last_uptime_us'", [], |r| r.get::<_, i64>(0))? > 0;
    if !has_uptime {
        conn.execute_batch("ALTER TABLE hosts ADD COLUMN last_uptime_us INTEGER; ALTER TABLE hosts ADD COLUMN boot TEXT;")?;
    }
    Ok(conn)
}

impl Ledger {
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The host's state (all empty for a host never seen); an error when the
    /// ledger is not the one opened or holds times no clock could have
    /// written by `now_ms`.
    pub fn host(&self, host: &str, now_ms: i64) -> Result<HostEntry> {
        self.still_the_same()?;
        let e = self.entry(host)?;
        self.check_times(host, &e, now_ms)?;
        Ok(e)
    }

    fn entry(&self, host: &str) -> Result<HostEntry> {
        let row = self
            .conn
            .query_row(
                "SELECT max(coalesce(last_request_ms, 0), coalesce(in_flight_until_ms, 0)), not_before_ms, not_before_why, crawl_delay_ms,
                     crawl_delay_seen_ms, boot, last_uptime_us FROM hosts WHERE host = ?1",
                [host],
                |r| {
                    let (boot, us): (Option<String>, Option<i64>) = (r.get(5)?, r.get(6)?);
                    Ok(HostEntry {
                        last_request_ms: r.get(0)?,
                        not_before_ms: r.get(1)?,
                        not_before_why: r.get(2)?,
                        crawl_delay_ms: r.get(3)?,
                        crawl_delay_seen_ms: r.get(4)?,
                        last_uptime: boot.zip(us).map(|(boot, us)| Uptime { boot, us }),
                    })
                },
            )
            .optional()
            .with_context(|| format!("reading {host}'s state from the host ledger"))?;
        Ok(row.unwrap_or_default())
    }

    /// Reserve the moment `now_ms` (`now_up` by the boot clock) for a
    /// request to `host`, if its delay since the last request (by both
    /// clocks), its not-before time and its daily cap allow; recorded
    /// durably before returning [`Reservation::Reserved`] (P8).
    pub fn reserve(&self, host: &str, delay_ms: i64, daily_cap: u32, now_ms: i64, now_up: Option<&Uptime>) -> Result<Reservation> {
        let ctx = || format!("reserving a request to {host} in the host ledger");
        self.still_the_same()?;
        self.check_times(host, &self.entry(host)?, now_ms)?;
        let tx = rusqlite::Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate).with_context(ctx)?;
        type Row = (Option<i64>, Option<i64>, Option<i64>, Option<String>, Option<i64>);
        let (last, in_flight, not_before, boot, last_us): Row = tx
            .query_row(
                "SELECT last_request_ms, in_flight_until_ms, not_before_ms, boot, last_uptime_us FROM hosts WHERE host = ?1",
                [host],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
            .optional()
            .with_context(ctx)?
            .unwrap_or((None, None, None, None, None));
        let by_uptime = HostEntry { last_uptime: boot.zip(last_us).map(|(boot, us)| Uptime { boot, us }), ..HostEntry::default() };
        let ready = last
            .max(in_flight)
            .map_or(0, |l| l.saturating_add(delay_ms))
            .max(not_before.unwrap_or(0))
            .max(by_uptime.ready_by_uptime(delay_ms, now_ms, now_up).unwrap_or(0));
        if ready > now_ms {
            return Ok(Reservation::NotBefore(ready));
        }
        let used = self.count_last_day(&tx, host, now_ms)?;
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
        record_uptime(&tx, host, now_up).with_context(ctx)?;
        tx.execute("INSERT INTO requests (host, at_ms) VALUES (?1, ?2)", params![host, now_ms]).with_context(ctx)?;
        // The daily cap needs a day; the hosts' transparency pages count
        // every request of this machine for the longest report period.
        tx.execute("DELETE FROM requests WHERE host = ?1 AND at_ms < ?2", params![host, now_ms - HISTORY_DAYS * 24 * 3600 * 1000])
            .with_context(ctx)?;
        tx.commit().with_context(ctx)?;
        Ok(Reservation::Reserved)
    }

    /// The exchange ended at `ended_ms` (`ended_up` by the boot clock):
    /// the next delay counts from here.
    pub fn finished(&self, host: &str, ended_ms: i64, ended_up: Option<&Uptime>) -> Result<()> {
        self.still_the_same()?;
        let ctx = || format!("recording the end of a request to {host} in the host ledger");
        self.conn
            .execute(
                "INSERT INTO hosts (host, last_request_ms) VALUES (?1, ?2)
                 ON CONFLICT (host) DO UPDATE SET last_request_ms = max(coalesce(last_request_ms, 0), excluded.last_request_ms),
                     in_flight_until_ms = NULL",
                params![host, ended_ms],
            )
            .with_context(ctx)?;
        record_uptime(&self.conn, host, ended_up).with_context(ctx)?;
        Ok(())
    }

    /// No request to `host` before `until_ms`, kept exactly up to
    /// [`MAX_NOT_BEFORE`] from `now_ms`; beyond it the host is [`HELD`]
    /// until the operator releases it (P10). An earlier
    /// time never shortens a later one. Returns the time recorded.
    pub fn set_not_before(&self, host: &str, until_ms: i64, now_ms: i64, why: &str) -> Result<i64> {
        self.still_the_same()?;
        let until = if until_ms.saturating_sub(now_ms) > MAX_NOT_BEFORE.as_millis() as i64 { HELD } else { until_ms };
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
        self.still_the_same()?;
        self.conn
            .execute(
                "INSERT INTO hosts (host, crawl_delay_ms, crawl_delay_seen_ms) VALUES (?1, ?2, ?3)
                 ON CONFLICT (host) DO UPDATE SET crawl_delay_ms = excluded.crawl_delay_ms, crawl_delay_seen_ms = excluded.crawl_delay_seen_ms",
                params![host, ms, now_ms],
            )
            .with_context(|| format!("recording {host}'s Crawl-delay in the host ledger"))?;
        Ok(())
    }

    /// Every time recorded for `host` could have been written by this
    /// machine's clock: none ahead of `now_ms` (beyond [`CLOCK_SLACK_MS`]),
    /// no not-before time past a year unless the host is [`HELD`].
    fn check_times(&self, host: &str, e: &HostEntry, now_ms: i64) -> Result<()> {
        let ahead = now_ms + CLOCK_SLACK_MS;
        // (what, the time recorded, how far ahead of now it may lawfully be)
        let checks = [
            ("its last request", e.last_request_ms, SEND_MARGIN_MS),
            ("the last reading of its robots.txt", e.crawl_delay_seen_ms, 0),
            ("its not-before time", e.not_before_ms.filter(|n| *n != HELD), MAX_NOT_BEFORE.as_millis() as i64),
        ];
        for (what, at, lawful) in checks {
            if let Some(at) = at.filter(|at| at.saturating_sub(lawful) > ahead) {
                return Err(self.impossible(host, what, at, now_ms));
            }
        }
        Ok(())
    }

    fn impossible(&self, host: &str, what: &str, at_ms: i64, now_ms: i64) -> anyhow::Error {
        let days = (at_ms - now_ms) / 86_400_000;
        anyhow::anyhow!(
            "the host ledger {} holds an impossible time for {host}: {what} is recorded at {} ({days} days from now, \
             {}), which this machine's clock cannot have written: the clock was set back or the ledger was altered. \
             No request is sent to {host} (P8, fail closed). Check the clock (timedatectl); if it is right, \
             `cityvibe source release {host}` sets the host's times to now, and its delay counts from then",
            self.dir.join("hosts.db").display(),
            crate::times::utc(at_ms),
            crate::times::utc(now_ms),
        )
    }

    /// The operator's word on `host` (`cityvibe source release`): lift a
    /// hold ([`HELD`]) and bring every time no clock could have written back
    /// to `now_ms`, so the host's delay counts from now. A not-before time
    /// within a year (the host's own word) is kept. Says what it changed.
    pub fn release(&self, host: &str, now_ms: i64) -> Result<Vec<String>> {
        self.still_the_same()?;
        let ctx = || format!("releasing {host} in the host ledger");
        let e = self.entry(host).with_context(ctx)?;
        let ahead = now_ms + CLOCK_SLACK_MS;
        let mut done = Vec::new();
        let tx = rusqlite::Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate).with_context(ctx)?;
        if e.not_before_ms == Some(HELD) {
            done.push(format!("lifted the hold ({})", e.not_before_why.clone().unwrap_or_default()));
            tx.execute("UPDATE hosts SET not_before_ms = NULL, not_before_why = NULL WHERE host = ?1", [host]).with_context(ctx)?;
        } else if let Some(n) = e.not_before_ms.filter(|n| n - MAX_NOT_BEFORE.as_millis() as i64 > ahead) {
            done.push(format!("cleared an impossible not-before time ({})", crate::times::utc(n)));
            tx.execute("UPDATE hosts SET not_before_ms = NULL, not_before_why = NULL WHERE host = ?1", [host]).with_context(ctx)?;
        }
        let n = tx
            .execute(
                "UPDATE hosts SET last_request_ms = ?2, in_flight_until_ms = NULL
                 WHERE host = ?1 AND (last_request_ms > ?3 OR in_flight_until_ms > ?3)",
                params![host, now_ms, ahead],
            )
            .with_context(ctx)?;
        if n > 0 {
            done.push(format!("set its last request, recorded ahead of the clock, to now ({})", crate::times::utc(now_ms)));
        }
        let n =
            tx.execute("UPDATE requests SET at_ms = ?2 WHERE host = ?1 AND at_ms > ?3", params![host, now_ms, ahead]).with_context(ctx)?;
        if n > 0 {
            done.push(format!("counted {n} request(s) recorded ahead of the clock as made now (the daily cap still counts them)"));
        }
        tx.execute("UPDATE hosts SET crawl_delay_seen_ms = ?2 WHERE host = ?1 AND crawl_delay_seen_ms > ?3", params![host, now_ms, ahead])
            .with_context(ctx)?;
        tx.commit().with_context(ctx)?;
        Ok(done)
    }

    /// Requests reserved for `host` in the 24 h before `now_ms`: what the
    /// daily cap counts (read only; the source gate asks it).
    pub fn requests_in_last_day(&self, host: &str, now_ms: i64) -> Result<u32> {
        self.count_last_day(&self.conn, host, now_ms)
    }

    /// The count of `host`'s requests in the 24 h before `now_ms`, read in
    /// `conn` (the ledger, or a reservation's transaction). A day's count of
    /// requests not yet made is no count: an error.
    fn count_last_day(&self, conn: &rusqlite::Connection, host: &str, now_ms: i64) -> Result<u32> {
        let (used, latest): (u32, Option<i64>) = conn
            .query_row(
                "SELECT count(*), max(at_ms) FROM requests WHERE host = ?1 AND at_ms > ?2",
                params![host, now_ms - 24 * 3600 * 1000],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .with_context(|| format!("counting {host}'s requests of the last 24 h in the host ledger"))?;
        if let Some(at) = latest.filter(|at| *at > now_ms + CLOCK_SLACK_MS) {
            return Err(self.impossible(host, "a request counted against its daily cap", at, now_ms));
        }
        Ok(used)
    }

    /// The moment of every request reserved for `host` since `since_ms`,
    /// oldest first, whatever database made it: what the host's public
    /// page counts. Read only.
    pub fn requests_since(&self, host: &str, since_ms: i64) -> Result<Vec<i64>> {
        self.still_the_same()?;
        let mut st = self.conn.prepare_cached("SELECT at_ms FROM requests WHERE host = ?1 AND at_ms >= ?2 ORDER BY at_ms")?;
        let rows = st.query_map(params![host, since_ms], |r| r.get(0))?;
        rows.collect::<rusqlite::Result<_>>().with_context(|| format!("reading {host}'s requests from the host ledger"))
    }

    /// The hosts with a request reserved since `since_ms`, by name.
    pub fn hosts_since(&self, since_ms: i64) -> Result<Vec<String>> {
        self.still_the_same()?;
        let mut st = self.conn.prepare_cached("SELECT DISTINCT host FROM requests WHERE at_ms >= ?1 ORDER BY host")?;
        let rows = st.query_map([since_ms], |r| r.get(0))?;
        rows.collect::<rusqlite::Result<_>>().context("reading the hosts of the host ledger")
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
            Ok(()) => Ok(Some(HostLock { file })),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => Err(anyhow::Error::new(e).context(format!("locking {}", path.display()))),
        }
    }
}

/// Record `up` as `host`'s last request by the boot clock: never moved
/// back within one boot (another process may have recorded a later one);
/// a time of another boot is replaced.
fn record_uptime(conn: &Connection, host: &str, up: Option<&Uptime>) -> rusqlite::Result<()> {
    let Some(up) = up else { return Ok(()) };
    conn.execute(
        "UPDATE hosts SET last_uptime_us = CASE WHEN boot = ?2 THEN max(coalesce(last_uptime_us, 0), ?3) ELSE ?3 END, boot = ?2
         WHERE host = ?1",
        params![host, up.boot, up.us],
    )?;
    Ok(())
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
        assert_eq!(l.reserve("h", 1000, 2, 10_000, None).unwrap(), Reservation::Reserved);
        // Its end not yet recorded (or its process dead): the send margin counts too.
        assert_eq!(l.reserve("h", 1000, 2, 10_500, None).unwrap(), Reservation::NotBefore(11_000 + SEND_MARGIN_MS));
        l.finished("h", 10_800, None).unwrap();
        assert_eq!(l.reserve("h", 1000, 2, 11_000, None).unwrap(), Reservation::NotBefore(11_800));
        assert_eq!(l.reserve("h", 1000, 2, 11_800, None).unwrap(), Reservation::Reserved);
        assert_eq!(l.reserve("h", 1000, 2, 20_000, None).unwrap(), Reservation::CapReached(2));
        // Another process (another connection) sees the same state.
        let other = Ledger::open(dir.path()).unwrap();
        assert_eq!(other.host("h", 11_800).unwrap().last_request_ms, Some(11_800 + SEND_MARGIN_MS));
    }

    // P8: the wall clock set forward by 8 s between two requests (NTP, a
    // person) does not shorten a 10 s delay: the boot clock, which no step
    // moves, still asks for the rest; a time of another boot says nothing.
    #[test]
    fn a_wall_clock_set_forward_never_shortens_the_delay() {
        let dir = tempfile::tempdir().unwrap();
        let l = Ledger::open(dir.path()).unwrap();
        let up = |boot: &str, us| Uptime { boot: boot.into(), us };
        assert_eq!(l.reserve("h", 10_000, 9, 100_000, Some(&up("b", 5_000_000))).unwrap(), Reservation::Reserved);
        l.finished("h", 100_050, Some(&up("b", 5_050_000))).unwrap();
        // 2 s later by the boot clock, 10 s later by the wall clock.
        assert_eq!(l.reserve("h", 10_000, 9, 110_050, Some(&up("b", 7_050_000))).unwrap(), Reservation::NotBefore(118_050));
        assert_eq!(l.host("h", 110_050).unwrap().ready_by_uptime(10_000, 110_050, Some(&up("b", 7_050_000))), Some(118_050));
        // Another process's earlier time never moves the last request back.
        l.finished("h", 100_060, Some(&up("b", 5_000_100))).unwrap();
        assert_eq!(l.host("h", 110_050).unwrap().last_uptime, Some(up("b", 5_050_000)));
        assert_eq!(l.reserve("h", 10_000, 9, 118_050, Some(&up("b", 15_050_000))).unwrap(), Reservation::Reserved);
        // After a reboot the boot clock's old times say nothing: the wall clock's delay holds alone.
        assert_eq!(l.reserve("h", 10_000, 9, 128_050, Some(&up("c", 1_000))).unwrap(), Reservation::NotBefore(128_050 + SEND_MARGIN_MS));
    }

    // P10: a not-before time up to a year is kept exactly, beyond it the
    // host is held; neither is ever shortened.
    #[test]
    fn not_before_is_kept_to_a_year_then_held_and_never_shortened() {
        let dir = tempfile::tempdir().unwrap();
        let l = Ledger::open(dir.path()).unwrap();
        let now = crate::clock::Clock::now_ms(&crate::clock::SystemClock);
        let year = MAX_NOT_BEFORE.as_millis() as i64;
        assert_eq!(l.set_not_before("h", now + year, now, "a year").unwrap(), now + year);
        l.set_not_before("h", now + 5, now, "near").unwrap();
        let e = l.host("h", now).unwrap();
        assert_eq!((e.not_before_ms, e.not_before_why.as_deref()), (Some(now + year), Some("a year")));
        assert_eq!(l.reserve("h", 0, 10, now, None).unwrap(), Reservation::NotBefore(now + year));
        assert_eq!(l.set_not_before("h", now + year + 1, now, "beyond").unwrap(), HELD);
        assert_eq!(l.host("h", now).unwrap().not_before_ms, Some(HELD));
        assert_eq!(l.release("h", now).unwrap().len(), 1);
        assert_eq!(l.host("h", now).unwrap().not_before_ms, None);
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

    // A host lock dropped is free at once, even while a copy of its
    // descriptor lives on: a child process being spawned by another thread
    // holds one until it runs its program (seen: a redirect hop of the test
    // suite waited 600 ms more for its own lock under load).
    #[test]
    fn a_host_lock_dropped_is_free_though_a_copy_of_its_descriptor_lives() {
        let dir = tempfile::tempdir().unwrap();
        let l = Ledger::open(dir.path()).unwrap();
        let held = l.lock_host("h.test").unwrap().expect("free");
        let copy = held.file.try_clone().unwrap();
        drop(held);
        assert!(l.lock_host("h.test").unwrap().is_some(), "our own dropped lock still held the host");
        drop(copy);
    }
}
