//! The source gate: the one answer to "should this source be fetched
//! now?", asked by `run`, `run --dry-run`, `source show` and `doctor`
//! alike, so the dry run never answers another question than the run.
//!
//! It weighs, in this order: a row naming no adapter of this binary, the
//! operator's switch, an unreviewed manifest (P3), a robots.txt review
//! still pending (P14; read only through a folder or loopback `--mirror`),
//! a host held until the operator releases it (P10, P11), the hours window
//! (P9), the period (P7),
//! and what else the host ledger says (a not-before time beyond what a run
//! waits, P10; the daily cap, P7). It reads, never
//! writes: the per-request rules (delay, re-read config, reservation) stay
//! with the scheduler and the ledger, which a run still goes through.

use crate::adapter::Adapter;
use crate::config::Config;
use crate::http::Ledger;
use crate::store::Store;
use crate::store::runs::SourceReport;
use crate::times::utc;
use crate::vocab::SourceStatus;
use anyhow::Result;
use std::time::Duration;

/// A tolerance for cron's jitter: a run a few minutes early is still due (P7).
pub const PERIOD_TOLERANCE_MS: i64 = 10 * 60 * 1000;

/// What the gate answers for one source.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Fetch it now (every per-request rule still applies).
    Go,
    /// Not now, and that is normal (switched off, outside its hours, within its period, a host that asked us to wait).
    Skip(Why),
    /// Never, until someone acts (an unreviewed manifest, a row this binary has no adapter for).
    Refuse(Why),
}

/// Why a source is not fetched now.
#[derive(Debug, Clone, PartialEq)]
pub enum Why {
    /// `[sources.ID]` names no adapter built into this binary (a scaffold not yet built).
    UnknownAdapter { known: Vec<&'static str> },
    /// Switched off in sources.toml, or no row.
    SwitchedOff(String),
    /// The manifest still says TODO in these fields (P3).
    Unreviewed(Vec<&'static str>),
    /// The host's robots.txt was never read (`RobotsReview::Pending`) and
    /// the run would reach the real host: what a person must read and where
    /// to write it ([`crate::adapter::Manifest::pending_review`]).
    ReviewPending(String),
    /// Outside the row's hours window (P9).
    OutsideHours(String),
    /// Fetched less than its period ago (P7).
    WithinPeriod { period: Duration, due_ms: i64 },
    /// Not before then (P10), beyond what a run waits: the host's
    /// Retry-After, or our own pause (a backoff, a robots.txt we could not read).
    NotBefore { host: String, until_ms: i64, asked: String },
    /// The host asked for more than a year away, or said no (401, 403,
    /// 451): held until the operator lifts the hold (`source release`, P10,
    /// P11).
    Held { host: String, asked: String },
    /// The host's daily cap is used up (requests in the last 24 h).
    CapReached { host: String, cap: u32, used: u32 },
}

impl Why {
    /// The status a run records for it.
    pub fn status(&self) -> SourceStatus {
        match self {
            Why::UnknownAdapter { .. } => SourceStatus::Failed,
            Why::SwitchedOff(_) => SourceStatus::Disabled,
            Why::Unreviewed(_) | Why::ReviewPending(_) | Why::Held { .. } => SourceStatus::Refused,
            _ => SourceStatus::Skipped,
        }
    }

    /// The reason in words, saying what to do where there is something to do.
    pub fn message(&self, id: &str) -> String {
        match self {
            Why::UnknownAdapter { known } => format!(
                "[sources.{id}] names no adapter built into this binary (known: {}); a scaffold not yet built? \
                 rebuild (`cargo build --release`) and check it with `cityvibe adapter check {id} --sample FILE`, \
                 or remove the row; the other sources run",
                known.join(", ")
            ),
            Why::SwitchedOff(why) => why.clone(),
            Why::Unreviewed(todo) => format!(
                "not fetched: its manifest still says TODO in {} (adapters/{id}.rs); an unreviewed adapter is never requested (P3): \
                 fill them in as docs/ADAPTERS.md says, or switch it off with `cityvibe source disable {id} --reason \"…\"`",
                todo.join(", ")
            ),
            Why::ReviewPending(what) => format!("not fetched: {what}"),
            Why::OutsideHours(hours) => format!("outside its hours {hours} (Europe/Madrid)"),
            Why::WithinPeriod { period, due_ms } => format!(
                "fetched less than its period ({}) ago; next due at {} (P7; `run --force` for a manual run)",
                hours_text(*period),
                crate::output::time(crate::times::at_ms(*due_ms).ok())
            ),
            Why::NotBefore { host, until_ms, asked } => {
                // Only a Retry-After is the host's word; our backoff, or a
                // robots.txt we could not read, is ours: say whose it is.
                let whose = if asked.contains("Retry-After") { "asked us not to come back" } else { "is left alone" };
                format!("{host} {whose} before {} ({asked}); skipped until then (P10)", utc(*until_ms))
            }
            Why::Held { host, asked } => crate::http::ledger::held_message(host, id, asked),
            Why::CapReached { host, cap, used } => format!("daily cap of {cap} requests to {host} reached ({used} in the last 24 h)"),
        }
    }

    /// The line a run records for a source the gate kept out.
    pub fn report(&self, id: &str) -> SourceReport {
        let mut r = SourceReport::new(id, self.status());
        r.message = self.message(id);
        match self {
            Why::WithinPeriod { due_ms, .. } => r.next_due = crate::times::at_second(*due_ms).ok(),
            Why::NotBefore { until_ms, .. } => r.not_before = crate::times::at_second(*until_ms).ok(),
            _ => {}
        }
        r
    }
}

/// Everything the gate weighs; each part optional where a command has none
/// (no database yet: no period to keep; no ledger yet: nothing it says).
pub struct SourceGate<'a> {
    pub config: &'a Config,
    pub adapters: &'a [&'static dyn Adapter],
    pub store: Option<&'a Store>,
    pub ledger: Option<&'a Ledger>,
    /// An operator's manual run: the period does not hold (every delay, window and cap still does).
    pub force: bool,
    /// The run reads a mirror whose reads never leave the machine (a
    /// folder, a loopback base), not the real hosts: a source whose
    /// robots.txt review is pending may be read. A mirror on another host
    /// is a real host to whoever runs it: not this.
    pub local_mirror: bool,
    /// The host of a mirror on another machine the run reads through
    /// (`--mirror https://staging.example`): every request reaches it, so
    /// its books (a hold, a not-before time, the daily cap) are the ones
    /// weighed and named, not the feed's host's (P8).
    pub mirror_host: Option<String>,
    /// The longest a run waits for a host; a not-before time beyond it skips the source.
    pub max_wait: Duration,
    pub now_ms: i64,
}

impl<'a> SourceGate<'a> {
    /// A gate over the built-in adapters, now.
    pub fn new(config: &'a Config, store: Option<&'a Store>, ledger: Option<&'a Ledger>) -> SourceGate<'a> {
        SourceGate {
            config,
            adapters: crate::adapters::ALL,
            store,
            ledger,
            force: false,
            local_mirror: false,
            mirror_host: None,
            max_wait: Duration::from_secs(config.settings.max_wait_secs),
            now_ms: crate::clock::Clock::now_ms(&crate::clock::SystemClock),
        }
    }

    /// Should source `id` be fetched now? A database or ledger that cannot
    /// be read is an error: no proof, no answer (fail closed).
    pub fn decide(&self, id: &str) -> Result<Decision> {
        let Some(adapter) = self.adapters.iter().find(|a| a.manifest().id == id) else {
            if !self.config.enabled(id) {
                // A scaffold's row, written switched off: nothing to fail for yet.
                let why = format!("{}; this binary has no adapter {id} yet: rebuild before switching it on", self.config.why_off(id));
                return Ok(Decision::Skip(Why::SwitchedOff(why)));
            }
            let known = self.adapters.iter().map(|a| a.manifest().id).collect();
            return Ok(Decision::Refuse(Why::UnknownAdapter { known }));
        };
        let m = adapter.manifest();
        if !self.config.enabled(id) {
            return Ok(Decision::Skip(Why::SwitchedOff(self.config.why_off(id))));
        }
        let todo = crate::adapter_tools::todo_fields(m);
        if !todo.is_empty() {
            return Ok(Decision::Refuse(Why::Unreviewed(todo)));
        }
        if !self.local_mirror
            && let Some(what) = m.pending_review()
        {
            return Ok(Decision::Refuse(Why::ReviewPending(what)));
        }
        // A hold is said by every run, within the period or not, until the
        // operator lifts it (P10, P11).
        // The host the run's requests are booked under: a mirror on another machine's own.
        let host = self.mirror_host.as_deref().unwrap_or(m.host);
        let entry = self.ledger.map(|l| l.host(host, self.now_ms)).transpose()?;
        if let Some(e) = &entry
            && e.not_before_ms == Some(crate::http::ledger::HELD)
        {
            return Ok(Decision::Refuse(Why::Held { host: host.to_string(), asked: e.not_before_why.clone().unwrap_or_default() }));
        }
        let policy = self.config.policy(*adapter)?;
        if let Some(hours) = &policy.hours
            && !hours.contains(self.now_ms)
        {
            return Ok(Decision::Skip(Why::OutsideHours(hours.to_string())));
        }
        if !self.force
            && let Some(store) = self.store
            && let Some(last) = store.last_fetch_ms(id)?
        {
            let period = policy.period;
            let due_ms = last + period.as_millis() as i64;
            if self.now_ms < due_ms - PERIOD_TOLERANCE_MS {
                return Ok(Decision::Skip(Why::WithinPeriod { period, due_ms }));
            }
        }
        if let (Some(ledger), Some(entry)) = (self.ledger, entry) {
            let host = host.to_string();
            if let Some(until_ms) = entry.not_before_ms
                && until_ms - self.now_ms > self.max_wait.as_millis() as i64
            {
                return Ok(Decision::Skip(Why::NotBefore { host, until_ms, asked: entry.not_before_why.unwrap_or_default() }));
            }
            let used = ledger.requests_in_last_day(&host, self.now_ms)?;
            if used >= m.daily_cap {
                return Ok(Decision::Skip(Why::CapReached { host, cap: m.daily_cap, used }));
            }
        }
        Ok(Decision::Go)
    }

    /// The ids to decide for: every adapter, then every row of sources.toml
    /// this binary has no adapter for (reported, never fatal).
    pub fn ids(&self) -> Vec<&'a str> {
        let mut ids: Vec<&str> = self.adapters.iter().map(|a| a.manifest().id).collect();
        ids.extend(self.config.unknown_rows(self.adapters));
        ids
    }
}

fn hours_text(d: Duration) -> String {
    let h = d.as_secs_f64() / 3600.0;
    if h.fract() == 0.0 { format!("{h} h") } else { format!("{h:.2} h") }
}
