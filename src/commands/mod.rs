//! One module per subcommand: each builds its options and calls the library.

pub mod adapter;
pub mod audit;
pub mod completions;
pub mod events;
pub mod export;
pub mod holdings;
pub mod run;
pub mod runs;
pub mod source;
pub mod sources_export;
pub mod takedown;
pub mod translate;

use std::io::IsTerminal;

/// Exit codes, as documented in the README.
pub mod exit {
    /// All went well.
    pub const OK: i32 = 0;
    /// At least one source failed, was refused, or looked broken.
    pub const SOURCE_PROBLEM: i32 = 1;
    /// Usage or configuration error.
    pub const USAGE: i32 = 2;
    /// Another run holds the lock; nothing was fetched.
    pub const LOCKED: i32 = 3;
}

/// Fail with the list of known ids when any of `ids` names no adapter.
pub fn check_source_ids(ids: &[String]) -> anyhow::Result<()> {
    for s in ids {
        crate::adapters::require(s)?;
    }
    Ok(())
}

/// Take the run lock beside the database; when another run holds it, say so
/// on stderr and give the exit code to stop with (nothing was done).
pub fn lock_or_exit(db: &std::path::Path) -> anyhow::Result<Result<crate::ingest::RunLock, i32>> {
    match crate::ingest::RunLock::acquire(db) {
        Ok(l) => Ok(Ok(l)),
        Err(e) if e.downcast_ref::<crate::ingest::Locked>().is_some() => {
            eprintln!("cityvibe: {e}");
            Ok(Err(exit::LOCKED))
        }
        Err(e) => Err(e),
    }
}

/// Whether stdout is a terminal (tables and progress bars only then).
pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// Print a JSON value on stdout.
pub fn print_json<T: serde::Serialize>(v: &T) -> anyhow::Result<()> {
    use std::io::Write;
    let text = serde_json::to_string_pretty(v)?;
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = writeln!(std::io::stdout().lock(), "{text}");
    Ok(())
}

/// Format ms since the epoch as a Europe/Madrid local time.
pub fn local_time(ms: Option<i64>) -> String {
    ms.and_then(|ms| jiff::Timestamp::from_millisecond(ms).ok())
        .and_then(|t| t.in_tz(crate::model::TZ_MADRID).ok())
        .map(|z| z.strftime("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_else(|| "-".into())
}
