//! Where the host ledger lives: the system ledger, one fixed folder per
//! machine for every request to a real host, and a private one for the
//! runs whose `--mirror` never leaves the machine; the folder the run lock
//! is taken in beside it. Not for opening it (`open`).

use anyhow::Result;
use std::path::{Path, PathBuf};

/// The system ledger's folder: one fixed place per machine, which no HOME,
/// `XDG_STATE_HOME` or `--state-dir` moves (P8). Every
/// request to a real host, from any user or process, is booked here.
pub const SYSTEM_STATE_DIR: &str = "/var/lib/cityvibe";

/// Where a command's host ledger lives, and whose it is.
#[derive(Debug, Clone, PartialEq)]
pub struct LedgerPlace {
    pub dir: PathBuf,
    /// The system ledger ([`SYSTEM_STATE_DIR`]), shared machine-wide; else
    /// a private one, for `--mirror` runs (tests, demos, staging).
    pub system: bool,
}

/// The ledger a command uses. Requests to real hosts (no `--mirror`) are
/// booked in the system ledger only: a `--state-dir` (or
/// `CITYVIBE_STATE_DIR`) naming another folder is refused for a command that
/// `sends`, so no second schedule can exist for one host; a command that
/// only reads may look into the private ledger it names. A command whose
/// `--mirror` never leaves the machine (`mirror`: a folder, a loopback
/// base) keeps a private ledger: `--state-dir`,
/// else `$XDG_STATE_HOME/cityvibe`, else `$HOME/.local/state/cityvibe`.
pub fn place(given: Option<&Path>, mirror: bool, sends: bool) -> Result<LedgerPlace> {
    let system = PathBuf::from(SYSTEM_STATE_DIR);
    let is_system = |d: &Path| d.components().eq(system.components()) || std::fs::canonicalize(d).is_ok_and(|c| c == system);
    match given {
        Some(dir) if is_system(dir) => Ok(LedgerPlace { dir: system, system: true }),
        Some(dir) if mirror || !sends => Ok(LedgerPlace { dir: dir.to_path_buf(), system: false }),
        Some(dir) => Err(crate::error::usage(format!(
            "--state-dir (or CITYVIBE_STATE_DIR) {} names a private host ledger, which only --mirror runs on a folder or \
             a loopback address (127.0.0.1, ::1, localhost) use: requests to real hosts, a mirror on any other host \
             included, are booked in the system ledger {SYSTEM_STATE_DIR}, shared by every user and process on this \
             machine, so that two never keep two schedules for one host (P8). Drop --state-dir and CITYVIBE_STATE_DIR, \
             or mirror from a folder or a loopback address",
            dir.display()
        ))),
        None if !mirror => Ok(LedgerPlace { dir: system, system: true }),
        None => {
            let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
            let dir = match (env("XDG_STATE_HOME"), env("HOME")) {
                (Some(xdg), _) => xdg.join("cityvibe"),
                (None, Some(home)) => home.join(".local/state/cityvibe"),
                (None, None) => anyhow::bail!(
                    "no state directory for the --mirror run's private host ledger: pass --state-dir DIR or set CITYVIBE_STATE_DIR (or HOME)"
                ),
            };
            Ok(LedgerPlace { dir, system: false })
        }
    }
}

/// The folder the run lock also takes the database's identity in: the
/// ledger's, so machine-wide for real runs (`given` and `mirror` as for
/// [`place`], asked by a command that sends nothing). A command that sends
/// nothing (`translate`) on a machine with no system ledger yet uses the
/// private folder instead of failing: whoever runs cityvibe for real makes
/// the system folder before its first lock. `None`: no folder at all.
pub fn lock_folder(given: Option<&Path>, mirror: bool) -> Option<PathBuf> {
    match place(given, mirror, false) {
        Ok(p) if p.system && !p.dir.exists() => place(None, true, false).ok().map(|p| p.dir),
        other => other.ok().map(|p| p.dir),
    }
}
