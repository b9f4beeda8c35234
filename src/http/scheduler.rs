//! The polite scheduler: one thread, every host interleaved. While one
//! host's delay runs, it fetches from another; a host never sees two requests
//! closer than its delay, even across processes and databases (each request
//! is reserved in the machine-wide host ledger before it is sent). Retries,
//! backoff, blocks, redirects, caps and the per-request checks all live here,
//! so no adapter or command can get them wrong (P8–P13, P15). When the
//! ledger cannot prove a host's delay, the host is not fetched (fail closed).
//!
//! This file holds the loop, the booking and the sending; beside it, the
//! reading of an answer (`answers.rs`), a 429 or 503 (`backoff.rs`) and
//! where requests may go (`redirects.rs`).

use super::client::Client;
use super::fetchlog::{FetchLog, FetchRecord, Validators};
use super::ledger::{HELD, Ledger, Reservation};
use super::reporter::FetchReporter;
use crate::clock::Clock;
use crate::times::utc;
use crate::vocab::RequestOutcome;
use std::collections::HashMap;
use std::time::Duration;
use url::Url;

mod answers;
mod backoff;
mod fetch;
mod redirects;
mod task;

pub use fetch::{Allowed, FetchDriver, FetchOutcome, FetchRequest, FetchResult, Gate};
pub use task::Scheduler;
use task::{Step, Task, skipped};

/// What the driver's gate leaves of a task about to send.
enum Cleared {
    Send,
    /// The source's delay rose: the task waits it first.
    Later,
    Stop(FetchOutcome),
}

/// When a task may go, or why it ends without a request.
enum Ready {
    At(i64),
    End(FetchOutcome),
}

impl<'c> Scheduler<'c> {
    pub fn new(
        client: &'c Client,
        ledger: &'c Ledger,
        clock: &'c dyn Clock,
        run_id: Option<i64>,
        reporter: &'c mut dyn FetchReporter,
    ) -> Scheduler<'c> {
        Scheduler { client, ledger, clock, hosts: HashMap::new(), run_id, no_log: None, reporter }
    }

    /// Fetch everything the drivers ask for, interleaving hosts; every
    /// request is recorded in `log`, and each URL's validators read from it.
    pub fn run<L: FetchLog>(&mut self, log: &mut L, drivers: &mut [&mut dyn FetchDriver<L>]) {
        let mut tasks: Vec<Option<Task>> = (0..drivers.len()).map(|_| None).collect();
        loop {
            for (i, d) in drivers.iter_mut().enumerate() {
                if tasks[i].is_none()
                    && let Some(req) = d.next_fetch(log)
                {
                    tasks[i] = Some(Task::new(i, req));
                }
            }
            if tasks.iter().all(Option::is_none) {
                return;
            }
            let Some((i, ready)) = self.soonest(log, drivers, &mut tasks) else { continue };
            let wait = ready - self.clock.now_ms();
            if let Some(t) = &tasks[i] {
                // For the run's spinner: which host, and how long it asked us to wait.
                self.reporter.waiting_for(t.current.host_str().unwrap_or(""), wait.max(0));
            }
            if wait > 0 {
                self.wait(log, drivers, &mut tasks, wait);
                continue;
            }
            let mut t = tasks[i].take().expect("task");
            match self.clear(&mut *drivers[t.driver], &mut t) {
                Cleared::Stop(outcome) => t.finish(log, drivers, &mut *self.reporter, outcome),
                Cleared::Later => tasks[i] = Some(t),
                Cleared::Send => match self.step(log, &mut t) {
                    Step::Again => tasks[i] = Some(t),
                    Step::Done(outcome) => t.finish(log, drivers, &mut *self.reporter, outcome),
                },
            }
        }
    }

    /// The task that may go soonest, and when. Tasks whose host said no,
    /// was given up, cannot be proven polite, or is out of reach for this
    /// run end at once, without a request.
    fn soonest<L: FetchLog>(
        &mut self,
        log: &mut L,
        drivers: &mut [&mut dyn FetchDriver<L>],
        tasks: &mut [Option<Task>],
    ) -> Option<(usize, i64)> {
        let mut best: Option<(usize, i64)> = None;
        for (i, slot) in tasks.iter_mut().enumerate() {
            let Some(t) = slot else { continue };
            match self.ready(t) {
                Ready::At(at) => {
                    if best.is_none_or(|(_, b)| at < b) {
                        best = Some((i, at));
                    }
                }
                Ready::End(outcome) => {
                    slot.take().expect("task").finish(log, drivers, &mut *self.reporter, outcome);
                }
            }
        }
        best
    }

    /// Wait up to `wait` ms for the soonest task; a stop asked while
    /// waiting ends the wait at once, and the tasks of the drivers that
    /// asked it.
    fn wait<L: FetchLog>(&mut self, log: &mut L, drivers: &mut [&mut dyn FetchDriver<L>], tasks: &mut [Option<Task>], wait: i64) {
        let now = self.clock.now_ms();
        let mut halted = false;
        for slot in tasks.iter_mut() {
            if let Some(d) = slot.as_ref().map(|t| t.driver)
                && let Some(outcome) = drivers[d].halt(now)
            {
                slot.take().expect("task").finish(log, drivers, &mut *self.reporter, outcome);
                halted = true;
            }
        }
        if halted {
            return;
        }
        // Never past the task's time, and in short steps: the ledger is
        // read again after each, so a request another process had in
        // flight (counted with its send margin) is waited from its real
        // end once it ends. `ready` never lies beyond the run's wait
        // ceiling (P10).
        self.clock.sleep(Duration::from_millis(wait.min(250) as u64));
    }

    /// The driver's word right before a request, checked before every
    /// one, retries and hops included (P9, P16).
    fn clear<L>(&mut self, driver: &mut dyn FetchDriver<L>, t: &mut Task) -> Cleared {
        match driver.gate(&t.req, self.clock.now_ms(), &mut *self.reporter) {
            Gate::Stop(outcome) => Cleared::Stop(outcome),
            Gate::Go { delay } => {
                let host = self.client.books(t.current.host_str().unwrap_or(""));
                let st = self.hosts.entry(host).or_default();
                let risen = delay.as_millis() as i64 > st.delay_ms.max(t.req.delay.as_millis() as i64);
                t.req.delay = t.req.delay.max(delay);
                if risen {
                    // The operator slowed the source mid-run: wait the new delay.
                    Cleared::Later
                } else {
                    Cleared::Send
                }
            }
        }
    }

    /// When the task's next request may be sent (wall clock, ms): the latest
    /// of the host's delay since its last request in any process (the
    /// slowest word wins: the source's delay, any other source's on the same
    /// host, robots.txt's Crawl-delay), its not-before time, and this run's
    /// own pauses. A time beyond the run's wait ceiling ends the host's work
    /// for this run (P8, P10).
    fn ready(&mut self, t: &Task) -> Ready {
        let host = self.client.books(t.current.host_str().unwrap_or(""));
        if let Some(why) = &self.no_log {
            return Ready::End(FetchOutcome::Failed(why.clone()));
        }
        let st = self.hosts.entry(host.clone()).or_default();
        if let Some(why) = &st.blocked {
            return Ready::End(FetchOutcome::Refused(format!("no further request to this host in this run: {why}")));
        }
        if let Some(why) = &st.gave_up {
            return Ready::End(FetchOutcome::Failed(format!("no further request to this host in this run: {why}")));
        }
        if let Some(why) = &st.closed {
            return Ready::End(FetchOutcome::Failed(why.clone()));
        }
        if let Some((until, why)) = &st.skipped {
            return Ready::End(skipped(*until, why.clone()));
        }
        let entry = match self.ledger.host(&host, self.clock.now_ms()) {
            Ok(e) => e,
            Err(e) => return Ready::End(self.close(&host, &e)),
        };
        if entry.not_before_ms == Some(HELD) {
            // Said by every run until the operator acts (P10, P11).
            let why = super::ledger::held_message(&host, &t.req.source, &entry.not_before_why.unwrap_or_default());
            self.hosts.entry(host).or_default().blocked = Some(why.clone());
            return Ready::End(FetchOutcome::Refused(why));
        }
        let st = self.hosts.entry(host.clone()).or_default();
        st.delay_ms = st.delay_ms.max(t.req.delay.as_millis() as i64).max(entry.crawl_delay_ms.unwrap_or(0));
        let from_last = entry.last_request_ms.map_or(0, |l| l.saturating_add(st.delay_ms));
        // By the boot clock too: a wall clock set forward never shortens the delay (P8).
        let now = self.clock.now_ms();
        let by_uptime = entry.ready_by_uptime(st.delay_ms, now, self.clock.uptime().as_ref()).unwrap_or(0);
        let not_before = entry.not_before_ms.unwrap_or(0);
        let at = st.next_ms.max(from_last).max(by_uptime).max(not_before).max(t.not_before_ms);
        let ceiling = self.client.limits.max_wait.as_millis() as i64;
        if at - self.clock.now_ms() > ceiling {
            let when = utc(at);
            let why = if not_before == at {
                let asked = entry.not_before_why.unwrap_or_default();
                // Only a Retry-After is the host's word; our backoff, or a
                // robots.txt we could not read, is ours: say whose it is.
                let whose = if asked.contains("Retry-After") { "asked us not to come back" } else { "is left alone" };
                format!("{host} {whose} before {when} ({asked}); skipped until then (P10)")
            } else {
                format!(
                    "the next request to {host} may go at {when}, beyond the {}s this run waits; host skipped for this run (P8, P10)",
                    self.client.limits.max_wait.as_secs()
                )
            };
            self.hosts.entry(host).or_default().skipped = Some((Some(at), why.clone()));
            return Ready::End(skipped(Some(at), why));
        }
        Ready::At(at)
    }

    /// The ledger failed for `host`: fail closed, the host gets nothing more in this run (P8).
    fn close(&mut self, host: &str, e: &anyhow::Error) -> FetchOutcome {
        FetchOutcome::Failed(self.close_why(host, e))
    }

    fn close_why(&mut self, host: &str, e: &anyhow::Error) -> String {
        let why = format!("{host} not fetched in this run: the host ledger cannot prove its delay ({e:#})");
        self.hosts.entry(host.to_string()).or_default().closed = Some(why.clone());
        why
    }

    /// The fetch log cannot be written: fail closed, nothing more is sent in this run (P17).
    fn no_fetch_log(&mut self, e: &anyhow::Error) -> FetchOutcome {
        let why = format!(
            "not fetched: the database's fetch log cannot be written ({e:#}), and no request is sent without its record \
             (P17, fail closed); check the database (a missing fetch_log table comes back when the database is rebuilt \
             from a backup)"
        );
        FetchOutcome::Failed(self.no_log.get_or_insert(why).clone())
    }

    /// Send one request for the task and decide what follows.
    fn step(&mut self, log: &dyn FetchLog, t: &mut Task) -> Step {
        let host = self.client.books(t.current.host_str().unwrap_or(""));
        // No request without its record in the fetch log (P17): proven
        // writable before the request, not found missing after it.
        if let Err(e) = log.writable() {
            return Step::Done(self.no_fetch_log(&e));
        }
        let delay_ms = self.hosts.get(&host).map(|h| h.delay_ms).unwrap_or(0).max(t.req.delay.as_millis() as i64);
        // One process at a time talks to a host; the OS frees the lock if we die.
        let _lock = match self.ledger.lock_host(&host) {
            Ok(Some(l)) => l,
            Ok(None) => {
                t.not_before_ms = self.clock.now_ms() + 50;
                return Step::Again;
            }
            Err(e) => return Step::Done(self.close(&host, &e)),
        };
        // The slot is recorded before the request is sent (P8).
        let started = self.clock.now_ms();
        if let Some(step) = self.reserve(&host, t, delay_ms, started) {
            return step;
        }
        let validators = if t.req.conditional { stored_validators(log, &t.req.url, &mut *self.reporter) } else { Validators::default() };
        let conditional = validators.etag.is_some() || validators.last_modified.is_some();
        let result = self.client.get(&t.current, validators.etag.as_deref(), validators.last_modified.as_deref());
        // Rounded up: a delay counted from a truncated instant could fall short by
        // a fraction of a millisecond (P8).
        let ended = self.clock.now_ms_ceil();
        t.requests += 1;
        t.elapsed_ms += (ended - started).max(0) as u64;
        // The delay counts from the end of this exchange, in this process and any other.
        if let Err(e) = self.ledger.finished(&host, ended, self.clock.uptime().as_ref()) {
            // The answer is taken in, but the run says at once that the
            // ledger failed, and the host gets nothing more.
            let why = self.close_why(&host, &e);
            self.reporter.warn(&why);
        }
        let st = self.hosts.entry(host.clone()).or_default();
        st.next_ms = st.next_ms.max(ended + delay_ms);
        let mut record = FetchRecord {
            run_id: self.run_id,
            source: t.req.source.clone(),
            host: host.clone(),
            url: t.current.to_string(),
            started_ms: started,
            duration_ms: ended - started,
            status: None,
            bytes: 0,
            conditional,
            outcome: RequestOutcome::Ok,
        };
        let (step, outcome) = match result {
            Err(e) => {
                let text = format!("{}: {e}", t.current);
                let step = Step::Done(FetchOutcome::Failed(text.clone()));
                (step, RequestOutcome::Error(e.to_string()))
            }
            Ok(ex) => {
                record.status = Some(ex.status);
                t.status = Some(ex.status);
                record.bytes = ex.bytes;
                self.on_response(log, t, ex, delay_ms, &validators)
            }
        };
        record.outcome = outcome;
        self.log(log, t, &record, step)
    }

    /// Book the task's request in the host ledger at `started` (P8), within
    /// the daily cap counted across processes and databases (P7); `None`
    /// when booked, else what the task does instead.
    fn reserve(&mut self, host: &str, t: &mut Task, delay_ms: i64, started: i64) -> Option<Step> {
        match self.ledger.reserve(host, delay_ms, t.req.daily_cap, started, self.clock.uptime().as_ref()) {
            Ok(Reservation::Reserved) => None,
            Ok(Reservation::NotBefore(at)) => {
                t.not_before_ms = at;
                Some(Step::Again)
            }
            Ok(Reservation::CapReached(used)) => {
                let why = format!("daily cap of {} requests to {host} reached ({used} in the last 24 h)", t.req.daily_cap);
                self.hosts.entry(host.to_string()).or_default().skipped = Some((None, why.clone()));
                Some(Step::Done(FetchOutcome::Skipped(why)))
            }
            Err(e) => Some(Step::Done(self.close(host, &e))),
        }
    }

    /// Record the request sent in the fetch log (P17) and tell the
    /// reporter; `step` is what follows, unless the log failed.
    fn log(&mut self, log: &dyn FetchLog, t: &Task, record: &FetchRecord, step: Step) -> Step {
        self.reporter.sent(record);
        if let Err(e) = log.record(record) {
            // This request went unrecorded; no further one goes, and the run
            // says so now even when this fetch is otherwise done.
            let outcome = self.no_fetch_log(&e);
            match step {
                Step::Again => return Step::Done(outcome),
                Step::Done(_) => {
                    if let FetchOutcome::Failed(why) = &outcome {
                        self.reporter.warn(&format!("{}: {why}", t.req.source));
                    }
                }
            }
        }
        step
    }
}

/// The validators to send for `url`; unreadable ones are said, not dropped,
/// and the request goes without them: a full download.
fn stored_validators(log: &dyn FetchLog, url: &Url, reporter: &mut dyn FetchReporter) -> Validators {
    log.validators(url.as_str()).unwrap_or_else(|e| {
        reporter.warn(&format!("could not read the validators of {url} (this request goes without them and downloads it in full): {e:#}"));
        Validators::default()
    })
}
