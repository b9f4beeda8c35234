//! The one writer of a URL's validators (P12), for the scheduler (a 304
//! refreshes them, a body as last time) and for the drivers (a body taken
//! in) alike: written to the run's fetch log, and a failure said to
//! whoever watches, never the end of a source. Not for reading them (the
//! scheduler asks the log itself) or for what they are (`fetchlog`).

use super::fetchlog::{FetchLog, Validators};
use super::reporter::FetchReporter;

/// Keep `v` as the validators of `url`. Validators not kept only cost a
/// full download next time: said to `reporter`, and the run goes on.
pub fn keep_validators<L: FetchLog + ?Sized>(log: &L, url: &str, v: &Validators, reporter: &mut dyn FetchReporter) {
    if let Err(e) = log.set_validators(url, v) {
        reporter.warn(&format!("could not store the validators of {url} (next run downloads it in full): {e:#}"));
    }
}
