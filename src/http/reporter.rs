//! What the scheduler tells whoever watches it: each request sent (its
//! fetch-log record, for `-v`), the host it waits for next (for a
//! spinner), and the problems that stop nothing (a validator not stored, a
//! sources.toml that no longer reads mid-run), for the command to print:
//! the library prints nothing. The command layer implements
//! [`FetchReporter`] and hands it in; the scheduler keeps no process-wide
//! state for it. Not for the problems that end a source: those
//! reach the run's report through the drivers' outcomes.

use super::fetchlog::FetchRecord;

/// A watcher of the scheduler; every method is optional.
pub trait FetchReporter {
    /// The run waits for `host` next, `ms` from now (0: it goes now).
    fn waiting_for(&mut self, _host: &str, _ms: i64) {}
    /// A request was sent; `record` is what the fetch log keeps of it.
    fn sent(&mut self, _record: &FetchRecord) {}
    /// A problem that stops nothing, in one line (no `cityvibe: ` prefix):
    /// the run goes on, and whoever watches says it (on stderr).
    fn warn(&mut self, _line: &str) {}
}

/// Nobody watching (the library's own callers, tests).
pub struct Unwatched;
impl FetchReporter for Unwatched {}
