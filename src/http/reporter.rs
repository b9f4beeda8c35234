//! What the scheduler tells whoever watches it: each request sent (its
//! fetch-log record, for `-v`) and the host it waits for next (for a
//! spinner). The command layer implements [`FetchReporter`] and hands it in;
//! the scheduler keeps no process-wide state for it (issue 22). Not for
//! problems: those reach the run's report through the drivers' outcomes.

use crate::store::fetchlog::FetchRecord;

/// A watcher of the scheduler; every method is optional.
pub trait FetchReporter {
    /// The run waits for `host` next, `ms` from now (0: it goes now).
    fn waiting_for(&mut self, _host: &str, _ms: i64) {}
    /// A request was sent; `record` is what the fetch log keeps of it.
    fn sent(&mut self, _record: &FetchRecord) {}
}

/// Nobody watching (the library's own callers, tests).
pub struct Unwatched;
impl FetchReporter for Unwatched {}
