//! One run: for every enabled source, fetch (through the polite scheduler,
//! all hosts interleaved), parse, scrub, and store in one transaction per
//! source; then report. A failure of one source never stops the others.

use crate::adapter::{Adapter, Feed, FeedError, FeedRole, FetchPlan, Paging};
use crate::config::Config;
use crate::http::{
    Allowed, Client, Clock, FetchDriver, FetchOutcome, FetchReporter, FetchRequest, FetchResult, Gate, Ledger, Scheduler, Unwatched,
    keep_validators,
};
use crate::model::PublisherTranslation;
use crate::store::Store;
use crate::store::ingest::{Verdict, WithdrawGuard};
use crate::store::runs::SourceReport;
use crate::vocab::SourceStatus;
use anyhow::Result;
use std::collections::HashMap;
use std::path::PathBuf;
use url::Url;

mod bounds;
pub mod gate;
mod lock;
mod pages;
mod sinks;
pub use bounds::{RunBounds, listen_for_stop};
pub use gate::{Decision, SourceGate};
pub use lock::{Locked, RunLock};
use pages::{Fetched, Paged, PagedRead};
use sinks::{StoreSink, Tally, TranslationSink};

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
        let mut driver = SourceDriver::new(adapter, &opts.config, opts.config_path.clone(), bounds);
        driver.delay = driver.delay.max(mirror_delay.unwrap_or_default());
        driver.pages_cap = opts.client.limits.max_body_bytes;
        drivers.push(driver);
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

pub use gate::PERIOD_TOLERANCE_MS;

/// One source's progress through a run.
struct SourceDriver {
    adapter: &'static dyn Adapter,
    delay: std::time::Duration,
    withdraw_guard: WithdrawGuard,
    /// The config the run started with, for the per-request checks when the file cannot be re-read.
    config: Config,
    allowed: Allowed,
    config_path: Option<PathBuf>,
    /// Per feed of the manifest, whether the operator left it on (P16).
    feeds_on: Vec<bool>,
    next_feed: usize,
    /// Where the read of the current feed stands when it is paged.
    paged_read: PagedRead,
    /// The most a paged feed's pages may come to together, in bytes: the
    /// cap of one body (`Limits::max_body_bytes`).
    pages_cap: u64,
    /// Bodies fetched so far (FetchPlan::All, and the pages of a paged feed).
    bodies: Vec<Fetched>,
    /// Feeds fetched together that answered 304 or the same body (P12).
    unchanged: Vec<usize>,
    /// When another feed changed, those are asked again in full to merge:
    /// the feeds still to ask, and whether this second pass has begun. (No
    /// body is kept between runs: a raw feed may hold contact data, P5.)
    again: Vec<usize>,
    asking_again: bool,
    /// The feed of the fetch in flight.
    current: usize,
    done: bool,
    report: SourceReport,
    /// The source's own time: its requests on the wire and storing what
    /// came back, not the waits for its or other hosts' delays.
    busy_ms: u64,
    /// Messages from feeds that failed before one worked (fallback plan).
    notes: Vec<String>,
    /// Whether a feed of this source looked broken (P20): when no later one
    /// is taken in, the source reports `anomaly`, not a plain failure.
    saw_anomaly: bool,
    /// The run's deadline and stop signal, checked before every request.
    bounds: RunBounds,
    /// The last re-read of sources.toml failed (said once, not per request).
    reload_failed: bool,
}

impl SourceDriver {
    fn new(adapter: &'static dyn Adapter, config: &Config, config_path: Option<PathBuf>, bounds: RunBounds) -> SourceDriver {
        let m = adapter.manifest();
        let mut rules: Vec<(String, String)> = m.redirects.iter().map(|r| (r.host.to_string(), r.path_prefix.to_string())).collect();
        rules.extend(
            m.feeds.iter().filter_map(|f| Url::parse(f.url).ok()).map(|u| (u.host_str().unwrap_or("").to_string(), u.path().to_string())),
        );
        let mut driver = SourceDriver {
            adapter,
            delay: config.delay_for(adapter),
            withdraw_guard: config.withdraw_guard(m.id),
            config: config.clone(),
            allowed: Allowed {
                rules,
                feed_urls: m.feeds.iter().map(|f| f.url.to_string()).collect(),
                switched_off: m.feeds.iter().filter(|f| !config.feed_on(m.id, f)).map(|f| f.url.to_string()).collect(),
            },
            config_path,
            feeds_on: m.feeds.iter().map(|f| config.feed_on(m.id, f)).collect(),
            next_feed: 0,
            paged_read: PagedRead::default(),
            pages_cap: crate::http::Limits::default().max_body_bytes,
            bodies: Vec::new(),
            unchanged: Vec::new(),
            again: Vec::new(),
            asking_again: false,
            current: 0,
            done: false,
            report: SourceReport::new(m.id, SourceStatus::Ok),
            busy_ms: 0,
            notes: Vec::new(),
            saw_anomaly: false,
            bounds,
            reload_failed: false,
        };
        driver.skip_feeds_off();
        driver
    }

    /// Move `next_feed` past the feeds switched off, so they are never requested.
    fn skip_feeds_off(&mut self) {
        while self.feeds_on.get(self.next_feed) == Some(&false) {
            self.next_feed += 1;
        }
    }

    fn end(&mut self, status: SourceStatus, message: String) {
        self.report.status = status;

        // Parser errors may quote feed text: no contact data, control bytes
        // or bidi overrides in reports or logs (P5).
        // Escapes read back first: `{:?}` must hide nothing.
        let message = crate::parse::controls::without_controls(&message);
        self.report.message = crate::parse::pii::scrub(&crate::parse::stored::unescaped(&message));
        self.done = true;
    }

    /// A feed that failed or looked broken: with alternatives left, note it
    /// and try the next; else end with `status`, telling every reason.
    fn setback(&mut self, status: SourceStatus, why: String, last_feed: bool, what_to_do: &str) {
        self.saw_anomaly |= status == SourceStatus::Anomaly;
        let status = if self.saw_anomaly { SourceStatus::Anomaly } else { status };
        if self.adapter.manifest().plan == FetchPlan::FirstThatParses && !last_feed {
            self.notes.push(why);
        } else {
            let mut all = std::mem::take(&mut self.notes);
            all.push(why);
            // One reason said once: a host the ledger or the fetch log closed
            // gives every remaining feed the same one.
            all.dedup();
            self.end(status, format!("{}; {what_to_do}", all.join("; then ")));
        }
    }

    fn finish(mut self) -> SourceReport {
        self.report.duration_ms = self.busy_ms;
        self.report
    }

    /// Parse and store what was fetched; `Err` for a feed that cannot be read.
    fn take_in(&mut self, store: &mut Store, mut bodies: Vec<Fetched>, reporter: &mut dyn FetchReporter) -> Result<Verdict, String> {
        let m = self.adapter.manifest();
        // The publisher's own translations first, keyed by source event id.
        let mut translations: HashMap<String, Vec<PublisherTranslation>> = HashMap::new();
        let (mut translation_errors, mut translation_notes) = (0, Vec::new());
        for fetched in bodies.iter_mut().filter(|f| m.feeds[f.feed].role == FeedRole::Translation) {
            let feed = &m.feeds[fetched.feed];
            let mut sink = TranslationSink { lang: feed.lang, map: &mut translations, tally: Tally::default() };
            fetched.feed_into(self.adapter, feed, &mut sink).map_err(|e| format!("{}: {e}", fetched.url))?;
            // Counted with the source's record errors and said in its report,
            // never dropped.
            translation_errors += sink.tally.error_count;
            translation_notes.extend(sink.tally.notes(&format!("{}: ", feed.url)));
        }
        let primary =
            bodies.iter().find(|f| m.feeds[f.feed].role == FeedRole::Primary).map(|f| f.feed).ok_or("no primary feed was fetched")?;
        let feed: &Feed = &m.feeds[primary];
        let (parsed, tally, verdict) = {
            let mut ingest = store.begin_ingest(m).map_err(|e| format!("database: {e:#}"))?;
            ingest.set_withdraw_guard(self.withdraw_guard);
            let candidates = self.adapter.original_languages();
            let decider = (!candidates.is_empty()).then(|| crate::translate::prepare::original::Decider::new(candidates, feed.lang));
            let mut sink = StoreSink { ingest, translations: &translations, parsed: 0, tally: Tally::default(), failure: None, decider };
            // A paged feed's pages, in the order they were asked: one feed
            // in one transaction, a later row of an id winning.
            let mut parsed = Ok(());
            for fetched in bodies.iter_mut().filter(|f| f.feed == primary) {
                if let Err(FeedError(why)) = fetched.feed_into(self.adapter, feed, &mut sink) {
                    parsed = Err(FeedError(if feed.paging == Paging::Whole { why } else { format!("{}: {why}", fetched.url) }));
                    break;
                }
            }
            let StoreSink { ingest, parsed: n, tally, failure, translations: _, decider: _ } = sink;
            let verdict = match (failure, &parsed) {
                (Some(e), _) => {
                    let _ = ingest.rollback();
                    return Err(format!("database: {e:#}"));
                }
                (None, Err(_)) => {
                    let _ = ingest.rollback();
                    None
                }
                (None, Ok(())) => Some(ingest.finish(n, tally.error_count).map_err(|e| format!("database: {e:#}"))?),
            };
            (parsed, tally, verdict)
        };
        if let Err(FeedError(why)) = parsed {
            return Err(format!("{}: {why}", feed.url));
        }
        self.report.record_errors = tally.error_count + translation_errors;
        self.notes.extend(tally.notes(""));
        self.notes.extend(translation_notes);
        let verdict = verdict.expect("a parsed feed has a verdict");
        if let Verdict::Committed(_) = verdict {
            // Only a body taken in is remembered, so a failed one is fetched again.
            for f in &bodies {
                keep_validators(store, &f.url, &f.validators, reporter);
            }
        }
        Ok(verdict)
    }

    /// A pass over the feeds fetched together has ended: nothing changed
    /// (every feed answered 304 or the same body: nothing is written but
    /// the fetch log and the run, P12); or some changed and the others are
    /// asked again in full, to merge; or every body is at hand: take them in.
    fn pass_ended(&mut self, store: &mut Store, req: &FetchRequest, what_to_do: &str, reporter: &mut dyn FetchReporter) {
        let m = self.adapter.manifest();
        if self.unchanged.len() == self.feeds_on.iter().filter(|on| **on).count() {
            self.end(SourceStatus::Unchanged, "every feed answered 304 or the same body as last time".into());
            return;
        }
        if !self.unchanged.is_empty() {
            if self.asking_again {
                let url = m.feeds[self.unchanged[0]].url;
                self.end(
                    SourceStatus::Failed,
                    format!("{url}: answered as unchanged to a request without validators; nothing taken in, will retry next run"),
                );
            } else {
                self.asking_again = true;
                self.again = std::mem::take(&mut self.unchanged);
            }
            return;
        }
        let mut bodies = std::mem::take(&mut self.bodies);
        // In the manifest's order, whatever order they came in: the merge is
        // the same; a paged feed's pages in their own order.
        bodies.sort_by_key(|f| (f.feed, f.page));
        // Bodies fetched without validators: when every one is the body
        // taken in last time, nothing to do.
        if all_as_last_time(store, bodies.iter()) {
            self.end(SourceStatus::Unchanged, "every feed holds the same body as last time".into());
            return;
        }
        self.take_in_and_end(store, bodies, req, true, what_to_do, reporter);
    }

    /// Take the bodies in and end the source with what came of it.
    fn take_in_and_end(
        &mut self,
        store: &mut Store,
        bodies: Vec<Fetched>,
        req: &FetchRequest,
        last_feed: bool,
        what_to_do: &str,
        reporter: &mut dyn FetchReporter,
    ) {
        match self.take_in(store, bodies, reporter) {
            Ok(Verdict::Committed(c)) => {
                self.report.added = c.added;
                self.report.updated = c.updated;
                self.report.withdrawn = c.withdrawn;
                self.report.merged = c.merged;
                let mut msg = format!(
                    "{} events: {} added, {} updated, {} unchanged, {} withdrawn",
                    c.added + c.updated + c.unchanged,
                    c.added,
                    c.updated,
                    c.unchanged,
                    c.withdrawn
                );
                if c.merged > 0 {
                    msg.push_str(&format!(", {} records merged into an earlier record of the same id", c.merged));
                }
                if c.taken_down > 0 {
                    msg.push_str(&format!(", {} kept out by takedowns", c.taken_down));
                }
                if c.corrections_lapsed > 0 {
                    msg.push_str(&format!(
                        ", {} operator corrections lapsed (the feed changed the field; see `cityvibe holdings {}`)",
                        c.corrections_lapsed,
                        self.adapter.manifest().id
                    ));
                }
                if !self.notes.is_empty() {
                    msg.push_str(&format!(" (from {}; earlier: {})", req.url, self.notes.join("; ")));
                }
                self.end(SourceStatus::Ok, msg);
            }
            Ok(Verdict::Anomaly(why)) => self.setback(SourceStatus::Anomaly, format!("{}: {why}", req.url), last_feed, what_to_do),
            Err(why) => self.setback(SourceStatus::Failed, why, last_feed, what_to_do),
        }
    }
}

/// Whether every body is the one taken in last time from its URL (P12).
fn all_as_last_time<'f>(store: &Store, mut bodies: impl Iterator<Item = &'f Fetched>) -> bool {
    bodies.all(|f| as_last_time(store, &f.url, &f.digest))
}

/// Whether `digest` is that of the body taken in last time from `url`.
fn as_last_time(store: &Store, url: &str, digest: &str) -> bool {
    store.validators(url).ok().and_then(|v| v.body_digest).as_deref() == Some(digest)
}

impl FetchDriver<Store> for SourceDriver {
    fn next_fetch(&mut self, store: &mut Store) -> Option<FetchRequest> {
        let m = self.adapter.manifest();
        if self.done {
            return None;
        }
        // The second pass (feeds fetched together): in full, without validators.
        let (index, conditional) = if self.asking_again {
            (*self.again.first()?, false)
        } else if self.next_feed < m.feeds.len() {
            (self.next_feed, true)
        } else {
            return None;
        };
        self.current = index;
        let feed = &m.feeds[index];
        let (page, in_full) = self.paged_read.next();
        let url = Url::parse(&feed.paging.page_url(feed.url, page)).ok()?;
        // Every feed sends its own validators (P12), each page of a paged
        // one too: a page answered 304 is as full as it was when taken in,
        // so a page whose record count was not kept is asked in full. A
        // page asked again because another one changed goes in full.
        let conditional = conditional
            && match feed.paging {
                Paging::Whole => true,
                Paging::LimitOffset { .. } => !in_full && store.validators(url.as_str()).is_ok_and(|v| v.records.is_some()),
            };
        Some(FetchRequest {
            source: m.id.to_string(),
            url,
            delay: self.delay,
            daily_cap: m.daily_cap,
            allowed: self.allowed.clone(),
            conditional,
        })
    }

    fn fetched(&mut self, store: &mut Store, req: FetchRequest, result: FetchResult, reporter: &mut dyn FetchReporter) {
        self.report.requests += result.requests as u64;
        self.busy_ms += result.elapsed_ms;
        let taking_in = std::time::Instant::now();
        self.fetched_body(store, req, result, reporter);
        self.busy_ms += taking_in.elapsed().as_millis() as u64;
    }

    fn gate(&mut self, req: &FetchRequest, now_ms: i64, reporter: &mut dyn FetchReporter) -> Gate {
        let id = self.adapter.manifest().id;
        // Past the run's deadline, or asked to stop: nothing more is sent,
        // and stored events are kept.
        if let Some(why) = self.bounds.why_stop(now_ms) {
            return Gate::Stop(FetchOutcome::Skipped(format!("{}: not requested: {why}; the next run fetches it", req.url)));
        }
        // Re-read before every request, so `source disable`, a slower delay or
        // narrower hours take effect mid-run (P9, P16); an unreadable file
        // keeps the config the run started with.
        let live = self.reload(reporter);
        let config = live.as_ref().unwrap_or(&self.config);
        if let Some(c) = &live
            && !c.enabled(id)
        {
            let why = c.sources.get(id).and_then(|r| r.disabled_reason.clone()).map(|r| format!(": {r}")).unwrap_or_default();
            return Gate::Stop(FetchOutcome::Disabled(format!("switched off during the run{why}")));
        }
        // A feed switched off mid-run (feeds_off) is not asked for: the
        // source stops for this run and runs without it next time (P16).
        if let Some(c) = &live
            && let Some(feed) = self.adapter.manifest().feeds.iter().find(|f| f.url == req.url.as_str())
            && !c.feed_on(id, feed)
        {
            return Gate::Stop(FetchOutcome::Disabled(format!(
                "{}: feed switched off during the run (feeds_off); the source's other feeds run next time",
                req.url
            )));
        }
        // Checked at load and at every re-read: a policy that does not read
        // cannot reach here; were it to, the source stops (fail closed).
        let policy = match config.policy(self.adapter) {
            Ok(p) => p,
            Err(e) => return Gate::Stop(FetchOutcome::Failed(format!("{}: {e:#}", req.url))),
        };
        if let Some(hours) = &policy.hours
            && !hours.contains(now_ms)
        {
            return Gate::Stop(FetchOutcome::Skipped(format!(
                "{}: outside its hours {hours} (Europe/Madrid) now; no further request in this run (P9)",
                req.url
            )));
        }
        Gate::Go { delay: policy.delay.max(self.delay) }
    }

    fn halt(&mut self, now_ms: i64) -> Option<FetchOutcome> {
        // During a wait for a host: the deadline or a signal ends it now,
        // stored events kept.
        let url = self.adapter.manifest().feeds.get(self.current).map_or("", |f| f.url);
        self.bounds.why_stop(now_ms).map(|why| FetchOutcome::Skipped(format!("{url}: not requested: {why}; the next run fetches it")))
    }
}

impl SourceDriver {
    /// sources.toml as it is now, validated; `None` when it cannot be read
    /// (the run keeps the last good settings and says so once).
    fn reload(&mut self, reporter: &mut dyn FetchReporter) -> Option<Config> {
        let path = self.config_path.as_ref()?;
        match Config::reload(path, &[self.adapter]) {
            Ok(mut c) => {
                c.run_unlisted = self.config.run_unlisted;
                self.config = c.clone();
                self.reload_failed = false;
                Some(c)
            }
            Err(e) => {
                if !self.reload_failed {
                    reporter.warn(&format!(
                        "{}: {} changed and no longer reads ({e:#}); this run keeps its last good settings",
                        self.adapter.manifest().id,
                        path.display()
                    ));
                }
                self.reload_failed = true;
                None
            }
        }
    }

    /// What `fetched` does with one result, timed by it.
    fn fetched_body(&mut self, store: &mut Store, req: FetchRequest, result: FetchResult, reporter: &mut dyn FetchReporter) {
        let m = self.adapter.manifest();
        self.report.not_modified += result.not_modified as u64;
        let came = match self.paged(store, &req, result, reporter) {
            Paged::Asking => return,
            came => came,
        };
        let feed_index = self.current;
        let last_feed = if self.asking_again {
            self.again.retain(|i| *i != feed_index);
            self.again.is_empty()
        } else {
            self.next_feed += 1;
            self.skip_feeds_off();
            self.next_feed >= m.feeds.len()
        };
        // "Stored events kept" only when there are some.
        let held = store.count_events(m.id).map_or(0, |(active, withdrawn)| active + withdrawn);
        let kept = if held > 0 { format!("its {held} stored events kept; ") } else { String::new() };
        let what_to_do = format!("{kept}if it persists, check {} or run `cityvibe source disable {} --reason \"…\"`", m.dataset_page, m.id);
        let result = match came {
            Paged::Asking => return,
            Paged::Read => return self.bodies_at_hand(store, &req, last_feed, &what_to_do, reporter),
            Paged::AsLastTime(why) => return self.as_last_time(store, &req, why, last_feed, &what_to_do, reporter),
            Paged::Outcome(result) => *result,
        };
        match result.outcome {
            FetchOutcome::NotModified => {
                self.as_last_time(store, &req, format!("{}: not modified (304)", req.url), last_feed, &what_to_do, reporter)
            }
            FetchOutcome::Unchanged => {
                self.as_last_time(store, &req, format!("{}: same body as last time", req.url), last_feed, &what_to_do, reporter)
            }
            FetchOutcome::Refused(why) => self.end(SourceStatus::Refused, format!("{why}; {what_to_do}")),
            FetchOutcome::Skipped(why) => self.end(SourceStatus::Skipped, why),
            FetchOutcome::Deferred { until_ms, why } => {
                self.report.not_before = crate::times::at_second(until_ms).ok();
                self.end(SourceStatus::Skipped, why)
            }
            FetchOutcome::Disabled(why) => self.end(SourceStatus::Disabled, why),
            // No name resolved: the network or DNS, not the source; no advice to switch it off.
            FetchOutcome::Failed(why) if why.contains(crate::http::client::UNRESOLVED) => {
                let what_to_do = format!("{kept}the next run tries again");
                self.setback(SourceStatus::Failed, why, last_feed, &what_to_do)
            }
            FetchOutcome::Failed(why) => self.setback(SourceStatus::Failed, why, last_feed, &what_to_do),
            FetchOutcome::Body { body, validators, .. } => {
                self.bodies.push(Fetched::whole(feed_index, req.url.to_string(), *body, *validators));
                self.bodies_at_hand(store, &req, last_feed, &what_to_do, reporter);
            }
        }
    }

    /// The feed came back as last time (`why`): the source is unchanged;
    /// with feeds fetched together, should another have changed, this one
    /// is asked again in full after the pass, to merge (P12).
    fn as_last_time(
        &mut self,
        store: &mut Store,
        req: &FetchRequest,
        why: String,
        last_feed: bool,
        what_to_do: &str,
        reporter: &mut dyn FetchReporter,
    ) {
        if self.adapter.manifest().plan != FetchPlan::All {
            return self.end(SourceStatus::Unchanged, why);
        }
        self.unchanged.push(self.current);
        if last_feed {
            self.pass_ended(store, req, what_to_do, reporter);
        }
    }

    /// A feed's body (or every page of it) is in `bodies`: take it in, or,
    /// with feeds fetched together, once the pass is over.
    fn bodies_at_hand(
        &mut self,
        store: &mut Store,
        req: &FetchRequest,
        last_feed: bool,
        what_to_do: &str,
        reporter: &mut dyn FetchReporter,
    ) {
        if self.adapter.manifest().plan == FetchPlan::All {
            if last_feed {
                self.pass_ended(store, req, what_to_do, reporter);
            }
            return;
        }
        let bodies = std::mem::take(&mut self.bodies);
        self.take_in_and_end(store, bodies, req, last_feed, what_to_do, reporter);
    }
}
