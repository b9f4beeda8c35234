//! What a command shows while the polite scheduler works, as its
//! [`FetchReporter`]: at `-v`, one stderr line per request sent (time, host,
//! URL, status, bytes, ms: no contact data); on a terminal, a spinner naming
//! the host the run waits for. Handed to the scheduler by the commands that
//! fetch (`run`, `audit`); no process-wide state. Not for the translation
//! step's bar (`progress`).

use crate::http::FetchReporter;
use crate::store::fetchlog::FetchRecord;

/// The `-v` request lines, as a crawler's log has them.
pub struct RequestLog {
    verbosity: u8,
}

impl RequestLog {
    /// At the verbosity of `-v` flags given (or `CITYVIBE_LOG`).
    pub fn new(verbose_flags: u8) -> RequestLog {
        RequestLog { verbosity: crate::output::verbosity(verbose_flags) }
    }
}

impl FetchReporter for RequestLog {
    fn sent(&mut self, r: &FetchRecord) {
        if self.verbosity == 0 {
            return;
        }
        eprintln!(
            "{} {} GET {} {} {} bytes {} ms{}",
            crate::output::rfc3339_string(r.started_ms),
            r.host,
            r.url,
            r.status.map_or("-".to_string(), |s| s.to_string()),
            r.bytes,
            r.duration_ms,
            if r.conditional { " (conditional)" } else { "" }
        );
    }
}

/// The run's fetch spinner: which host it waits for, and for how long.
pub struct FetchSpinner {
    pb: indicatif::ProgressBar,
}

impl FetchSpinner {
    pub fn new(message: &str) -> FetchSpinner {
        let pb = indicatif::ProgressBar::new_spinner();
        pb.set_message(message.to_string());
        pb.enable_steady_tick(std::time::Duration::from_millis(120));
        FetchSpinner { pb }
    }

    /// Name the host the scheduler waits for.
    pub fn waiting_for(&self, host: &str, ms: i64) {
        if host.is_empty() {
            return;
        }
        self.pb.set_message(if ms > 0 {
            format!("waiting {:.0} s for {host} (its delay is kept)…", ms as f64 / 1000.0)
        } else {
            format!("fetching from {host}…")
        });
    }
}

impl Drop for FetchSpinner {
    fn drop(&mut self) {
        self.pb.finish_and_clear();
    }
}
