//! One module per subcommand: each builds its options and calls the library.

pub mod adapter;
pub mod audit;
pub mod completions;
pub mod correct;
pub mod doctor;
pub mod events;
pub mod export;
pub mod holdings;
pub mod progress;
pub mod report;
pub mod run;
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

/// Take the run lock beside the database. When another run holds it, the
/// error is [`crate::ingest::Locked`]: `main` tells it on stderr (and as
/// JSON on stdout under `--json`) and exits 3, nothing done.
pub fn run_lock(cli: &Cli) -> anyhow::Result<crate::ingest::RunLock> {
    // The database's identity is locked in the ledger's folder too, when there is one.
    let folder = crate::http::ledger::lock_folder(cli.state_dir.as_deref(), private_ledger_allowed(cli));
    crate::ingest::RunLock::acquire(&cli.db, folder.as_deref())
}

/// Whether this command may keep a private host ledger: only with a `--mirror`
/// whose reads never leave the machine (a folder, a loopback base); any other
/// mirror host is booked in the system ledger, as a real host is. An unreadable
/// `--mirror` counts as none: the command itself says what is wrong with it.
pub fn private_ledger_allowed(cli: &Cli) -> bool {
    cli.mirror.as_deref().and_then(|m| crate::http::Mirror::parse(m).ok()).is_some_and(|m| m.stays_on_this_machine())
}

/// The host of `--mirror` when it is on another machine: the one host a
/// run's requests reach and are booked under (P8).
pub fn remote_mirror_host(cli: &Cli) -> Option<String> {
    cli.mirror.as_deref().and_then(|m| crate::http::Mirror::parse(m).ok()).and_then(|m| m.remote_host().map(str::to_string))
}

/// The host ledger's folder for a command that only reads it (see
/// [`crate::http::ledger::place`]): the system ledger's, or the private one
/// `--state-dir` names or a `--mirror` run keeps.
pub fn state_dir(cli: &Cli) -> anyhow::Result<std::path::PathBuf> {
    Ok(crate::http::ledger::place(cli.state_dir.as_deref(), private_ledger_allowed(cli), false)?.dir)
}

/// The host ledger of a command that sends requests (`run`, `audit`): the
/// system ledger for real hosts, whatever HOME or XDG_STATE_HOME say, and a
/// `--state-dir` elsewhere refused (exit 2); a private one for `--mirror`.
/// Opening it fails closed, saying what to do.
pub fn sending_ledger(cli: &Cli) -> anyhow::Result<crate::http::Ledger> {
    crate::http::Ledger::open_to_send(cli.state_dir.as_deref(), private_ledger_allowed(cli))
}

/// Whether stdout is a terminal (tables and progress bars only then).
pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// Print a JSON value on stdout (see [`crate::output::json`]).
pub fn print_json<T: serde::Serialize>(v: &T) -> anyhow::Result<()> {
    crate::output::json(v)
}

/// A time for a table, in the display zone with its label (see [`crate::output::time`]).
pub fn local_time(t: Option<jiff::Timestamp>) -> String {
    crate::output::time(t)
}

/// How each source is cited now (P19): the manifests overlaid by sources.toml
/// when there is one; a mistake in it is a configuration error (exit 2).
pub fn load_citations(cli: &crate::cli::Cli) -> anyhow::Result<crate::citation::Citations> {
    if !cli.config.exists() {
        return Ok(crate::citation::Citations::new(None));
    }
    Ok(crate::citation::Citations::new(Some(&load_config(cli)?)))
}

/// The operator's switchboard; a mistake in it is a configuration error (exit
/// 2). A row naming no adapter of this binary (a scaffold not yet built) is
/// warned about once and changes nothing.
pub fn load_config(cli: &crate::cli::Cli) -> anyhow::Result<crate::config::Config> {
    let config = load_switchboard(cli)?;
    static WARNED: std::sync::Once = std::sync::Once::new();
    let unknown = config.unknown_rows(crate::adapters::ALL);
    if !unknown.is_empty() {
        WARNED.call_once(|| {
            eprintln!(
                "cityvibe: warning: {} names no adapter built into this binary ({}); rebuild (`cargo build --release`) to use it",
                cli.config.display(),
                unknown.iter().map(|id| format!("[sources.{id}]")).collect::<Vec<_>>().join(", ")
            )
        });
    }
    Ok(config)
}

/// The switchboard without the warning, for the commands that report each
/// source themselves (`run`, `run --dry-run`, `doctor`): the gate says it.
pub fn load_switchboard(cli: &crate::cli::Cli) -> anyhow::Result<crate::config::Config> {
    crate::config::Config::load(&cli.config, crate::adapters::ALL)
}
