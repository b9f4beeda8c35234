//! One module per subcommand: each builds its options and calls the library.

pub mod adapter;
pub mod audit;
pub mod completions;
pub mod correct;
pub mod doctor;
pub mod events;
pub mod export;
pub mod holdings;
pub mod run;
pub mod report;
pub mod runs;
pub mod source;
pub mod sources_export;
pub mod sources_page;
pub mod takedown;
pub mod translate;

use crate::cli::Cli;
use std::io::IsTerminal;

/// Exit statuses by their old names (see [`crate::output::Exit`]).
pub mod exit {
    use crate::output::Exit;
    pub const OK: Exit = Exit::Ok;
    pub const SOURCE_PROBLEM: Exit = Exit::SourceProblem;
    pub const USAGE: Exit = Exit::Usage;
    pub const LOCKED: Exit = Exit::Locked;
    pub const INTERNAL: Exit = Exit::Internal;
}

pub use crate::output::Exit;

/// Fail with the list of known ids when any of `ids` names no adapter.
pub fn check_source_ids(ids: &[String]) -> anyhow::Result<()> {
    for s in ids {
        crate::adapters::require(s)?;
    }
    Ok(())
}

/// Take the run lock beside the database; when another run holds it, say so
/// on stderr and give the exit code to stop with (nothing was done).
pub fn lock_or_exit(cli: &Cli) -> anyhow::Result<Result<crate::ingest::RunLock, Exit>> {
    // The database's identity is locked in the state folder too, when there is one (issue 10 item 10).
    match crate::ingest::RunLock::acquire(&cli.db, state_dir(cli).ok().as_deref()) {
        Ok(l) => Ok(Ok(l)),
        Err(e) if e.downcast_ref::<crate::ingest::Locked>().is_some() => {
            eprintln!("cityvibe: {e}");
            Ok(Err(exit::LOCKED))
        }
        Err(e) => Err(e),
    }
}

/// The host ledger's folder: `--state-dir`, `CITYVIBE_STATE_DIR`, or the XDG default.
pub fn state_dir(cli: &Cli) -> anyhow::Result<std::path::PathBuf> {
    crate::http::ledger::state_dir(cli.state_dir.as_deref())
}

/// Whether stdout is a terminal (tables and progress bars only then).
pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// Print a JSON value on stdout (see [`crate::output::json`]).
pub fn print_json<T: serde::Serialize>(v: &T) -> anyhow::Result<()> {
    crate::output::json(v)
}

/// A stored time for a table, in the display zone with its label (see [`crate::output::time`]).
pub fn local_time(ms: Option<i64>) -> String {
    crate::output::time(ms)
}

/// How each source is cited now (P19): the manifests overlaid by sources.toml
/// when there is one; a mistake in it is a configuration error (exit 2).
pub fn load_citations(cli: &crate::cli::Cli) -> anyhow::Result<crate::citation::Citations> {
    crate::citation::Citations::load(&cli.config).map_err(crate::output::as_usage)
}

/// The operator's switchboard; a mistake in it is a configuration error (exit 2).
pub fn load_config(cli: &crate::cli::Cli) -> anyhow::Result<crate::config::Config> {
    crate::config::Config::load(&cli.config, crate::adapters::ALL)
}
