//! One run over the selected sources: ask the gate of each, drive those
//! that go through the polite scheduler together (all hosts interleaved),
//! and gather their report lines, in the adapters' order. A failure of one
//! source never stops the others.
//!
//! Not for one source's way through the run (`driver`), nor for what the
//! `run` command does around it (translation, the report: `crate::run`).

use super::bounds::RunBounds;
use super::driver::SourceDriver;
use super::gate::{Decision, SourceGate};
use crate::adapter::{Adapter, Feed};
use crate::config::Config;
use crate::http::{Client, Clock, FetchDriver, FetchReporter, Ledger, Scheduler, Unwatched};
use crate::store::Store;
use crate::store::runs::SourceReport;
use crate::vocab::SourceStatus;
use anyhow::Result;
use std::path::PathBuf;

/// What `run` was asked to do.
pub struct RunOptions<'a> {
    pub adapters: &'a [&'static dyn Adapter],
    pub config: Config,
    /// Re-read before every request so `source disable` takes effect mid-run (P16).
    pub config_path: Option<PathBuf>,
    /// Only these sources (empty: all).
    pub only: Vec<String>,
    pub client: &'a Client,
    /// The machine-wide host ledger (P8).
    pub ledger: &'a Ledger,
    /// The time the politeness rules are kept in: the machine's
    /// ([`SystemClock`](crate::http::SystemClock)), or a test's simulated one.
    pub clock: &'a dyn Clock,
    /// An operator's manual run: fetch even within a source's period (P7);
    /// every delay still holds.
    pub force: bool,
}

/// Everything one run did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RunReport {
    pub run_id: i64,
    pub sources: Vec<SourceReport>,
}

impl RunReport {
    /// Whether any source failed, was refused, or looked broken.
    pub fn any_problem(&self) -> bool {
        self.sources.iter().any(|s| s.status.is_problem())
    }
}

/// Run the selected sources once, within the deadline of the settings.
pub fn run(store: &mut Store, opts: RunOptions<'_>) -> Result<RunReport> {
    let bounds = RunBounds::starting_at(opts.clock.now_ms(), std::time::Duration::from_secs(opts.config.settings.run_deadline_secs));
    run_within(store, opts, bounds, &mut Unwatched)
}

/// Run the selected sources once; past `bounds` no further request is sent
/// and the sources not done end `skipped`, saying why. `reporter`
/// is told of each request and of the host waited for.
pub fn run_within(store: &mut Store, opts: RunOptions<'_>, bounds: RunBounds, reporter: &mut dyn FetchReporter) -> Result<RunReport> {
    let run_id = store.begin_run()?;
    let mut reports: Vec<SourceReport> = Vec::new();
    let mut drivers: Vec<SourceDriver> = Vec::new();
    let gate = SourceGate {
        force: opts.force,
        local_mirror: opts.client.reads_local_mirror(),
        mirror_host: opts.client.remote_mirror_host(),
        adapters: opts.adapters,
        now_ms: opts.clock.now_ms(),
        ..SourceGate::new(&opts.config, Some(&*store), Some(opts.ledger))
    };
    let mut go: Vec<&'static dyn Adapter> = Vec::new();
    for id in gate.ids() {
        if !opts.only.is_empty() && !opts.only.iter().any(|o| o == id) {
            continue;
        }
        // One answer for the run, the dry run, `source show` and `doctor`.
        match gate.decide(id) {
            Ok(Decision::Go) => go.extend(opts.adapters.iter().find(|a| a.manifest().id == id)),
            Ok(Decision::Skip(why) | Decision::Refuse(why)) => reports.push(why.report(id)),
            Err(e) => {
                // Fail closed: what cannot be proved is not fetched (P8).
                let mut r = SourceReport::new(id, SourceStatus::Failed);
                r.message = format!("not fetched in this run: {e:#}");
                reports.push(r);
            }
        }
    }
    // A mirror on another host serves every source of the run from that one
    // host: it is paced by the slowest of their delays (P8, P9).
    let mirror_delay = go.iter().map(|a| opts.config.delay_for(*a)).max().filter(|_| opts.client.reads_remote_mirror());
    for adapter in go {
        let id = adapter.manifest().id;
        // Feeds switched off (P16, "en parte"): never requested, and what
        // came from them is not shown any more (their language falls to the engine).
        let off: Vec<&Feed> = adapter.manifest().feeds.iter().filter(|f| !opts.config.feed_on(id, f)).collect();
        store.forget_feeds(id, &off)?;
        let min_delay = mirror_delay.unwrap_or_default();
        drivers.push(SourceDriver::new(
            adapter,
            &opts.config,
            opts.config_path.clone(),
            bounds,
            min_delay,
            opts.client.limits.max_body_bytes,
        ));
    }
    {
        let mut refs: Vec<&mut dyn FetchDriver<Store>> = drivers.iter_mut().map(|d| d as &mut dyn FetchDriver<Store>).collect();
        Scheduler::new(opts.client, opts.ledger, opts.clock, Some(run_id), reporter).run(store, &mut refs);
    }
    for d in drivers {
        reports.push(d.finish());
    }
    // Keep the adapters' order in the report (rows with no adapter last).
    let order: Vec<&str> = opts.adapters.iter().map(|a| a.manifest().id).collect();
    reports.sort_by_key(|r| order.iter().position(|o| *o == r.id).unwrap_or(usize::MAX));
    for r in &reports {
        store.record_source_result(run_id, r)?;
    }
    Ok(RunReport { run_id, sources: reports })
}
