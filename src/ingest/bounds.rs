//! How long a run may go on: its deadline (`[settings] run_deadline_secs`,
//! below the period) and a stop asked by a signal (SIGINT from Ctrl-C,
//! SIGTERM from `systemctl stop` or `kill`, SIGHUP from a closed terminal).
//! Both are checked between two requests, during every wait for a host's
//! delay, between the run's steps and between two engine batches of the
//! translation step, never in the middle of a request or of a source's
//! transaction; the run then sends nothing more, records itself as
//! interrupted (exit 5) and frees its lock (a hung run would hold the lock,
//! and every later cron run would exit 3).
//!
//! Not for: the bounds on what a body may hold (`records`), nor the waits
//! for a host (`http`).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

/// Whether a stop signal came, and which (0: none); set by the handler.
static ASKED: LazyLock<Arc<AtomicUsize>> = LazyLock::new(|| Arc::new(AtomicUsize::new(0)));

/// Listen for SIGINT, SIGTERM and SIGHUP for the rest of the process: the
/// first one asks the run to stop at its next check; a second one ends the
/// process at once, as it would without this (an operator who will not wait
/// for a request to end). SIGHUP (the terminal of a manual run closed) is
/// taken as SIGTERM: the run stops cleanly, not killed mid-transaction.
pub fn listen_for_stop() -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let armed = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        // The default action must be registered before the flag, so that
        // the first signal finds it unarmed (signal-hook's double Ctrl-C).
        signal_hook::flag::register_conditional_default(signal, Arc::clone(&armed))?;
        signal_hook::flag::register(signal, Arc::clone(&armed))?;
        signal_hook::flag::register_usize(signal, Arc::clone(&ASKED), signal as usize)?;
    }
    Ok(())
}

/// One run's bounds in time, from its start, on the run's clock (the
/// machine's, or a test's simulated one): ms since the epoch.
#[derive(Debug, Clone, Copy)]
pub struct RunBounds {
    started_ms: i64,
    deadline: Duration,
}

impl RunBounds {
    /// A run starting at `now_ms` that must end within `deadline`.
    pub fn starting_at(now_ms: i64, deadline: Duration) -> RunBounds {
        RunBounds { started_ms: now_ms, deadline }
    }

    /// Why the run must stop at `now_ms`, if it must: its deadline has
    /// passed, or a signal asked it to stop.
    pub fn why_stop(&self, now_ms: i64) -> Option<String> {
        match ASKED.load(Ordering::SeqCst) {
            0 => {}
            n => {
                let name = match n as i32 {
                    signal_hook::consts::SIGINT => "SIGINT",
                    signal_hook::consts::SIGHUP => "SIGHUP",
                    _ => "SIGTERM",
                };
                return Some(format!("the run was asked to stop ({name})"));
            }
        }
        (now_ms.saturating_sub(self.started_ms) >= self.deadline.as_millis() as i64)
            .then(|| format!("the run's deadline passed (run_deadline_secs = {} in sources.toml)", self.deadline.as_secs()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The deadline is read on the run's clock, not the machine's: a test's
    /// simulated hour passes the deadline at once.
    #[test]
    fn the_deadline_is_kept_on_the_runs_clock() {
        let bounds = RunBounds::starting_at(1_000, Duration::from_secs(60));
        assert_eq!(bounds.why_stop(60_999), None);
        let why = bounds.why_stop(61_000).expect("past the deadline");
        assert!(why.contains("deadline passed (run_deadline_secs = 60"), "{why}");
    }
}
