//! The one progress display of the translation step, for `run` and
//! `translate` alike (issue 21 item 4), on a terminal only (indicatif draws
//! on stderr and hides itself elsewhere).
//!
//! Honest by construction: no bar before there is a count (a spinner says
//! the engine is starting, never a full bar at 0/0), and the time left comes
//! from the throughput measured since the first texts came back (the
//! engine's start-up is not counted as work), not from indicatif's guess
//! over the whole step. Not for the fetch spinner: that is `run`'s own.

use indicatif::{ProgressBar, ProgressStyle};
use std::time::{Duration, Instant};

/// The translation step's progress.
pub struct TranslateProgress {
    pb: ProgressBar,
    started: Instant,
    /// When the first texts came back, and how many: the base of the measured throughput.
    first: Option<(Instant, u64)>,
    counting: bool,
}

impl Default for TranslateProgress {
    fn default() -> Self {
        Self::new()
    }
}

impl TranslateProgress {
    /// A spinner until the first count comes.
    pub fn new() -> TranslateProgress {
        let pb = ProgressBar::new_spinner();
        pb.set_message("starting the translation engine…");
        pb.enable_steady_tick(Duration::from_millis(200));
        TranslateProgress { pb, started: Instant::now(), first: None, counting: false }
    }

    /// `done` of `total` texts translated, `words` sent so far.
    pub fn update(&mut self, done: u64, total: u64, words: u64) {
        if total == 0 {
            self.pb.set_message("nothing to translate");
            return;
        }
        if !self.counting {
            self.pb.set_style(
                ProgressStyle::with_template("translating {bar:30} {pos}/{len} texts {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            self.counting = true;
        }
        self.pb.set_length(total);
        self.pb.set_position(done);
        let now = Instant::now();
        let words_per_s = words as f64 / self.started.elapsed().as_secs_f64().max(0.001);
        let left = match self.first {
            None => {
                if done > 0 {
                    self.first = Some((now, done));
                }
                "measuring the pace…".to_string()
            }
            Some((t0, d0)) => time_left(done.saturating_sub(d0), now.duration_since(t0), total.saturating_sub(done)),
        };
        self.pb.set_message(format!("{words_per_s:.0} words/s, {left}"));
    }
}

impl Drop for TranslateProgress {
    fn drop(&mut self) {
        self.pb.finish_and_clear();
    }
}

/// The time left at the measured pace: `since` texts done in `elapsed`, `left` to go.
pub fn time_left(since: u64, elapsed: Duration, left: u64) -> String {
    if since == 0 || elapsed.is_zero() {
        return "measuring the pace…".into();
    }
    let secs = left as f64 * elapsed.as_secs_f64() / since as f64;
    match secs {
        s if s < 90.0 => format!("about {s:.0} s left"),
        s if s < 5400.0 => format!("about {:.0} min left", s / 60.0),
        s => format!("about {:.1} h left", s / 3600.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_is_the_measured_pace() {
        assert_eq!(time_left(100, Duration::from_secs(10), 50), "about 5 s left");
        assert_eq!(time_left(100, Duration::from_secs(10), 6000), "about 10 min left");
        assert_eq!(time_left(0, Duration::from_secs(10), 6000), "measuring the pace…");
    }
}
