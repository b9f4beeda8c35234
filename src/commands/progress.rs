//! What a command shows while it works, one type for `run`, `translate` and
//! `audit` ([`Progress`]): at `-v`, one stderr line per request sent (time,
//! host, URL, status, bytes, ms: no contact data), wherever stderr goes; on a
//! terminal only (indicatif draws on stderr and hides itself elsewhere), a
//! spinner while fetching, naming the host the run waits for, then the
//! translation step's bar.
//!
//! Handed to the polite scheduler as its [`FetchReporter`] (no process-wide
//! state) and to the run as its [`RunProgress`].
//!
//! The translation bar is honest by construction: no bar before there is a
//! count (a spinner says the engine is starting, never a full bar at 0/0),
//! and the time left comes from the throughput measured since the first
//! texts came back (the engine's start-up is not counted as work), not from
//! indicatif's guess over the whole step.

use crate::http::FetchReporter;
use crate::run::RunProgress;
use crate::store::fetchlog::FetchRecord;
use indicatif::{ProgressBar, ProgressStyle};
use std::time::{Duration, Instant};

/// What a command shows while it fetches and translates.
pub struct Progress {
    /// The `-v` level (0: no request lines).
    verbosity: u8,
    /// Bars and spinners at all (a terminal, not `--json` or `--quiet`).
    bars: bool,
    spinner: Option<ProgressBar>,
    /// Whether the spinner names the host the scheduler waits for (`run`'s
    /// does; `audit`'s keeps its one message).
    names_hosts: bool,
    translating: Option<TranslateProgress>,
    /// Whether the translation bar follows the fetch (`run`, when it translates).
    translates: bool,
}

impl Progress {
    /// For a command given `verbose_flags` `-v` (or `CITYVIBE_LOG`); bars
    /// and spinners only when `bars`.
    pub fn new(verbose_flags: u8, bars: bool) -> Progress {
        let verbosity = crate::output::verbosity(verbose_flags);
        Progress { verbosity, bars, spinner: None, names_hosts: false, translating: None, translates: false }
    }

    /// A spinner saying `message` while fetching, naming the host waited
    /// for when `names_hosts`.
    pub fn fetching(mut self, message: &str, names_hosts: bool) -> Progress {
        if self.bars {
            let pb = ProgressBar::new_spinner();
            pb.set_message(message.to_string());
            tick_steadily(&pb, Duration::from_millis(120));
            self.spinner = Some(pb);
        }
        self.names_hosts = names_hosts;
        self
    }

    /// Whether the translation step's bar follows the fetch.
    pub fn then_translating(mut self, translates: bool) -> Progress {
        self.translates = translates;
        self
    }

    /// The translation step begins: its bar (a spinner until the first count).
    pub fn start_translating(&mut self) {
        if self.bars {
            self.translating = Some(TranslateProgress::new());
        }
    }
}

impl FetchReporter for Progress {
    fn waiting_for(&mut self, host: &str, ms: i64) {
        let Some(pb) = self.spinner.as_ref().filter(|_| self.names_hosts && !host.is_empty()) else { return };
        pb.set_message(if ms > 0 {
            format!("waiting {:.0} s for {host} (its delay is kept)…", ms as f64 / 1000.0)
        } else {
            format!("fetching from {host}…")
        });
    }

    fn sent(&mut self, r: &FetchRecord) {
        if self.verbosity == 0 {
            return;
        }
        eprintln!(
            "{} {} GET {} {} {} bytes {} ms{}",
            crate::times::at_ms(r.started_ms).map_or_else(|_| format!("{} ms", r.started_ms), |t| t.to_string()),
            r.host,
            r.url,
            r.status.map_or("-".to_string(), |s| s.to_string()),
            r.bytes,
            r.duration_ms,
            if r.conditional { " (conditional)" } else { "" }
        );
    }
    fn warn(&mut self, line: &str) {
        eprintln!("cityvibe: {line}");
    }
}

impl RunProgress for Progress {
    fn fetched(&mut self) {
        if let Some(pb) = self.spinner.take() {
            pb.finish_and_clear();
        }
        // No bar for a step that does not run.
        if self.translates {
            self.start_translating();
        }
    }

    fn translating(&mut self, done: u64, total: u64, words: u64) {
        if let Some(p) = &mut self.translating {
            p.update(done, total, words);
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(pb) = self.spinner.take() {
            pb.finish_and_clear();
        }
        self.translating = None;
    }
}

/// The translation step's bar.
struct TranslateProgress {
    pb: ProgressBar,
    started: Instant,
    /// When the first texts came back, and how many: the base of the measured throughput.
    first: Option<(Instant, u64)>,
    counting: bool,
}

impl TranslateProgress {
    /// A spinner until the first count comes.
    fn new() -> TranslateProgress {
        let pb = ProgressBar::new_spinner();
        pb.set_message("starting the translation engine…");
        tick_steadily(&pb, Duration::from_millis(200));
        TranslateProgress { pb, started: Instant::now(), first: None, counting: false }
    }

    /// `done` of `total` texts translated, `words` sent so far.
    fn update(&mut self, done: u64, total: u64, words: u64) {
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

/// Redraws `pb` every `every` until it is finished or dropped, on a thread
/// started through `crate::spawn` (indicatif's own steady tick starts one
/// with `std::thread::spawn`, which panics when the system refuses it). A
/// refused thread is no failure of the command: the bar then moves only
/// when it is told something.
fn tick_steadily(pb: &ProgressBar, every: Duration) {
    let weak = pb.downgrade();
    let ticking = crate::spawn::thread("progress ticker", move || {
        while let Some(pb) = weak.upgrade().filter(|pb| !pb.is_finished()) {
            pb.tick();
            drop(pb);
            std::thread::sleep(every);
        }
    });
    drop(ticking);
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
