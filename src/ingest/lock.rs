//! The run lock: one run at a time per database, whatever path names it
//! (P8). Not for the per-host politeness locks: those are
//! the host ledger's (`http::ledger`).

use anyhow::{Context, Result};
use std::fs::File;
use std::path::{Path, PathBuf};

/// Held for the whole run: two runs never fetch at once on one database,
/// however it is named (a symlink, a hard link, `./` or `../`).
pub struct RunLock {
    _files: Vec<File>,
    pub path: PathBuf,
}

/// The lock is held by another process (in the leaf `error`, which maps it to exit 3).
pub use crate::error::Locked;

impl RunLock {
    /// Take the lock of the database `db`, or fail at once with [`Locked`]:
    /// a lock file beside its real path (symlinks resolved), and, with a
    /// state folder, one named after the file's identity (device and inode),
    /// which hard links share.
    pub fn acquire(db: &Path, state_dir: Option<&Path>) -> Result<RunLock> {
        if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| format!("creating the database folder {}", dir.display()))?;
        }
        // An empty file is an empty SQLite database: create it to know its identity.
        File::options().create(true).append(true).open(db).with_context(|| format!("opening the database {}", db.display()))?;
        let real = std::fs::canonicalize(db).with_context(|| format!("resolving {}", db.display()))?;
        let mut name = real.as_os_str().to_owned();
        name.push(".lock");
        let mut paths = vec![PathBuf::from(name)];
        #[cfg(unix)]
        if let Some(state) = state_dir {
            use std::os::unix::fs::MetadataExt;
            let meta = std::fs::metadata(&real).with_context(|| format!("reading {}", real.display()))?;
            let dir = state.join("databases");
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
            paths.push(dir.join(format!("{}-{}.lock", meta.dev(), meta.ino())));
        }
        #[cfg(not(unix))]
        let _ = state_dir;
        let mut files = Vec::new();
        for path in &paths {
            let file = File::options()
                .create(true)
                .truncate(false)
                .write(true)
                .open(path)
                .with_context(|| format!("opening {}", path.display()))?;
            match file.try_lock() {
                Ok(()) => files.push(file),
                Err(std::fs::TryLockError::WouldBlock) => return Err(Locked(real.clone()).into()),
                Err(std::fs::TryLockError::Error(e)) => return Err(anyhow::Error::new(e).context(format!("locking {}", path.display()))),
            }
        }
        Ok(RunLock { _files: files, path: paths.swap_remove(0) })
    }
}
