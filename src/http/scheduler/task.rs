//! The scheduler's own state: one fetch in flight ([`Task`]), what it
//! knows of each host in this run, and the [`Scheduler`] holding them.
//!
//! Not for: what the scheduler does with them (`scheduler.rs`, `answers`,
//! `backoff`, `redirects`).

use super::fetch::{FetchDriver, FetchOutcome, FetchRequest, FetchResult};
use crate::clock::Clock;
use crate::http::client::Client;
use crate::http::fetchlog::FetchLog;
use crate::http::ledger::Ledger;
use crate::http::reporter::FetchReporter;
use std::collections::HashMap;
use url::Url;

pub(super) struct Task {
    pub(super) driver: usize,
    pub(super) req: FetchRequest,
    pub(super) current: Url,
    pub(super) hops: u32,
    pub(super) tries: u32,
    pub(super) visited: Vec<String>,
    pub(super) requests: u32,
    pub(super) not_modified: u32,
    /// The status of the last answer.
    pub(super) status: Option<u16>,
    /// Time on the wire so far.
    pub(super) elapsed_ms: u64,
    pub(super) not_before_ms: i64,
}

impl Task {
    /// The fetch `req` of driver `driver`, before its first request.
    pub(super) fn new(driver: usize, req: FetchRequest) -> Task {
        Task {
            driver,
            current: req.url.clone(),
            req,
            hops: 0,
            tries: 0,
            visited: Vec::new(),
            requests: 0,
            not_modified: 0,
            status: None,
            elapsed_ms: 0,
            not_before_ms: 0,
        }
    }

    /// End the task: its driver gets the outcome with what the task counted.
    pub(super) fn finish<L: FetchLog>(
        self,
        log: &mut L,
        drivers: &mut [&mut dyn FetchDriver<L>],
        reporter: &mut dyn FetchReporter,
        outcome: FetchOutcome,
    ) {
        let r = FetchResult {
            outcome,
            requests: self.requests,
            not_modified: self.not_modified,
            status: self.status,
            elapsed_ms: self.elapsed_ms,
        };
        drivers[self.driver].fetched(log, self.req, r, reporter);
    }
}

#[derive(Default)]
pub(super) struct HostState {
    pub(super) delay_ms: i64,
    /// A pause decided in this run (backoff), on top of the ledger's times.
    pub(super) next_ms: i64,
    pub(super) blocked: Option<String>,
    /// Skipped for this run: (the time it may be asked again, why).
    pub(super) skipped: Option<(Option<i64>, String)>,
    /// It kept answering 429/503 until we gave up: a "no" for this run (P11).
    pub(super) gave_up: Option<String>,
    /// The ledger could not read or record its state: not fetched in this run.
    pub(super) closed: Option<String>,
}

/// Runs drivers to completion against one client, one fetch log and the host ledger.
pub struct Scheduler<'c> {
    pub(super) client: &'c Client,
    pub(super) ledger: &'c Ledger,
    /// The time every rule is kept in, and waited on (the machine's, or a
    /// test's simulated one).
    pub(super) clock: &'c dyn Clock,
    pub(super) hosts: HashMap<String, HostState>,
    pub(super) run_id: Option<i64>,
    /// The fetch log cannot be written: no request goes without its record
    /// (P17), so nothing more is sent in this run.
    pub(super) no_log: Option<String>,
    /// Told of each request sent and of the host waited for.
    pub(super) reporter: &'c mut dyn FetchReporter,
}

pub(super) enum Step {
    Done(FetchOutcome),
    Again,
}

/// A skip, with the time the host may be asked again when there is one.
pub(super) fn skipped(until: Option<i64>, why: String) -> FetchOutcome {
    match until {
        Some(until_ms) => FetchOutcome::Deferred { until_ms, why },
        None => FetchOutcome::Skipped(why),
    }
}
