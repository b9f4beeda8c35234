//! Opening the host ledger, and its distrust of itself: the set-up done
//! one process at a time, the ledger named and its witness kept in the
//! state folder, a ledger gone, emptied or replaced refused (P8, fail
//! closed), and the file checked to be the one opened before every read
//! and write. Not for where the ledger lives (`place`) or for what it
//! books (the ledger itself).

use super::place::{LedgerPlace, place};
use super::{Ledger, connect};
use crate::clock::{Clock, SystemClock};
use anyhow::{Context, Result};
use rusqlite::{Connection, OptionalExtension, params};
use std::fs::File;
use std::path::Path;

/// The witness file, in `hosts/`, naming the ledger this folder keeps.
const WITNESS: &str = "ledger-id";

/// The id of the ledger in `dir`, checked against the one its state
/// folder kept (`witness`): a ledger replaced or emptied is refused,
/// saying what to do (P8, fail closed); a new one is named.
fn ledger_id(conn: &Connection, dir: &Path, witness: Option<&str>) -> Result<String> {
    let fail = || format!("opening the host ledger in {}", dir.display());
    let (path, witness_path) = (dir.join("hosts.db"), dir.join("hosts").join(WITNESS));
    let id: Option<String> = conn.query_row("SELECT id FROM ledger", [], |r| r.get(0)).optional().with_context(fail)?;
    Ok(match (id, witness) {
        (Some(id), Some(w)) if id != w => anyhow::bail!(
            "the host ledger {} was replaced: it is ledger {id}, this state folder kept ledger {w} ({}); nothing is sent \
             (P8, fail closed). Put the right file back, or, to start over with this one, remove {} and run again",
            path.display(),
            witness_path.display(),
            witness_path.display()
        ),
        (Some(id), _) => id,
        (None, Some(w)) => anyhow::bail!(
            "the host ledger {} was emptied or replaced: this state folder kept ledger {w} ({}), the file holds none; \
             nothing is sent (P8, fail closed). Put the right file back, or, to start over, remove {} and run again",
            path.display(),
            witness_path.display(),
            witness_path.display()
        ),
        (None, None) => {
            // A new ledger (or one kept before the witness existed): name
            // it by the machine's time (a name, not a rule: no test clock).
            let now = SystemClock.now_ms();
            let id = format!("{now}-{}", std::process::id());
            conn.execute("INSERT INTO ledger (id, created_ms) VALUES (?1, ?2)", params![id, now]).with_context(fail)?;
            id
        }
    })
}

impl Ledger {
    /// Open (creating) the ledger in `dir`. A ledger this folder kept
    /// (its witness says so) that is gone, emptied or replaced is refused,
    /// saying what to do.
    pub fn open(dir: &Path) -> Result<Ledger> {
        let fail = || format!("opening the host ledger in {}", dir.display());
        std::fs::create_dir_all(dir.join("hosts")).with_context(fail)?;
        // Setting WAL and creating the tables take write locks that SQLite
        // does not wait for (a lock upgrade answers "database is locked" at
        // once): two processes opening a new ledger together would fail one.
        // So the set-up itself is done one process at a time, under a lock
        // the OS releases if the process dies.
        let setup =
            File::options().create(true).truncate(false).write(true).open(dir.join("hosts").join(".setup.lock")).with_context(fail)?;
        setup.lock().with_context(fail)?;
        let path = dir.join("hosts.db");
        let witness_path = dir.join("hosts").join(WITNESS);
        let witness = std::fs::read_to_string(&witness_path).ok().map(|w| w.trim().to_string()).filter(|w| !w.is_empty());
        let had_file = std::fs::metadata(&path).is_ok_and(|m| m.len() > 0);
        if let (Some(_), false) = (&witness, had_file) {
            anyhow::bail!(
                "the host ledger {} is gone or empty, though this state folder kept one ({} says so): the hosts' last \
                 requests, not-before times and daily counts it held are lost, so nothing is sent (P8, fail closed). \
                 If it was removed on purpose, let every cityvibe run end, wait the longest host delay, then remove {} \
                 and run again: a new ledger starts",
                path.display(),
                witness_path.display(),
                witness_path.display()
            );
        }
        let conn = connect(&path).with_context(fail)?;
        let id = ledger_id(&conn, dir, witness.as_deref())?;
        // Written when new (or lost): a command that only reads writes nothing.
        if witness.as_deref() != Some(id.as_str()) {
            std::fs::write(&witness_path, format!("{id}\n")).with_context(fail)?;
        }
        let identity = file_identity(&path).with_context(fail)?;
        drop(setup);
        Ok(Ledger { conn, dir: dir.to_path_buf(), identity })
    }

    /// The ledger file is still the one opened: not deleted, not replaced,
    /// not emptied. Checked before every read and write.
    /// The host ledger of a command that sends requests (`run`, `audit`):
    /// the system ledger for real hosts, whatever HOME or XDG_STATE_HOME
    /// say, and a private `given` folder refused (a usage error); a private
    /// one when `mirror` never leaves the machine (see [`place`]). Opening
    /// it fails closed, saying what to do.
    pub fn open_to_send(given: Option<&Path>, mirror: bool) -> Result<Ledger> {
        let LedgerPlace { dir, system } = place(given, mirror, true)?;
        Ledger::open(&dir).map_err(|e| {
            if system {
                e.context(format!(
                    "nothing is sent without the system host ledger {}: create it once for the user that runs cityvibe \
                     (`sudo install -d -o cityvibe {0}`, or systemd's StateDirectory=cityvibe) and run as that user \
                     (`sudo -u cityvibe cityvibe run`)",
                    dir.display()
                ))
            } else {
                e.context("nothing is sent without the host ledger: set --state-dir or CITYVIBE_STATE_DIR to a writable folder")
            }
        })
    }

    /// The ledger file is still the one opened: not deleted, not replaced,
    /// not emptied. Checked before every read and write.
    pub(super) fn still_the_same(&self) -> Result<()> {
        let path = self.dir.join("hosts.db");
        let what = match std::fs::metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => "was deleted",
            Err(e) => return Err(anyhow::Error::new(e).context(format!("reading the host ledger {}", path.display()))),
            Ok(m) if m.len() == 0 => "was emptied",
            Ok(_) if file_identity(&path)? != self.identity => "was replaced by another file",
            Ok(_) => return Ok(()),
        };
        anyhow::bail!(
            "the host ledger {} {what} while this process used it: its requests could no longer be shared with other \
             processes, so no more are sent (P8, fail closed); the next run says what to do",
            path.display()
        )
    }
}

/// A file's identity: (device, inode) on Unix, its creation time elsewhere.
fn file_identity(path: &Path) -> Result<(u64, u64)> {
    let m = std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Ok((m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let created = m.created().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos() as u64);
        Ok((0, created))
    }
}
