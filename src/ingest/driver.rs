//! One source's way through a run, as the polite scheduler drives it
//! (`http::FetchDriver`): ask the next feed of its plan, hold each request
//! to the run's bounds and the settings as they are now, gather what came
//! back, hand it to the take-in step, and end the source with one report
//! line that says what happened and what to do.
//!
//! Not for the order of the feeds (`plan`), the pages of one feed
//! (`pages`), parsing and storing (`take_in`), nor whether the source is
//! fetched at all (`gate`).

use super::bounds::RunBounds;
use super::fetched::Fetched;
use super::live::LiveConfig;
use super::pages::{FeedAt, Paged, PagedRead};
use super::plan::{FeedPlan, PassEnd};
use super::take_in::{TakeIn, TakenIn};
use crate::adapter::{Adapter, FetchPlan, Paging};
use crate::config::Config;
use crate::http::{Allowed, FetchDriver, FetchOutcome, FetchReporter, FetchRequest, FetchResult, Gate};
use crate::store::Store;
use crate::store::ingest::Verdict;
use crate::store::runs::SourceReport;
use crate::vocab::SourceStatus;
use std::path::PathBuf;
use std::time::Duration;
use url::Url;

/// One source's progress through a run.
pub(super) struct SourceDriver {
    adapter: &'static dyn Adapter,
    delay: Duration,
    /// The settings, re-read before every request (P9, P16).
    live: LiveConfig,
    allowed: Allowed,
    /// Which feed to ask next (P12, P16).
    plan: FeedPlan,
    /// Where the read of the current feed stands when it is paged.
    paged_read: PagedRead,
    /// Bodies fetched so far (FetchPlan::All, and the pages of a paged feed).
    bodies: Vec<Fetched>,
    take_in: TakeIn,
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
}

impl SourceDriver {
    /// The source of `adapter` in a run within `bounds`; no request waits
    /// less than `min_delay` (a mirror's), and a paged feed's pages hold at
    /// most `pages_cap` bytes together.
    pub(super) fn new(
        adapter: &'static dyn Adapter,
        config: &Config,
        config_path: Option<PathBuf>,
        bounds: RunBounds,
        min_delay: Duration,
        pages_cap: u64,
    ) -> SourceDriver {
        let m = adapter.manifest();
        let mut rules: Vec<(String, String)> = m.redirects.iter().map(|r| (r.host.to_string(), r.path_prefix.to_string())).collect();
        rules.extend(
            m.feeds.iter().filter_map(|f| Url::parse(f.url).ok()).map(|u| (u.host_str().unwrap_or("").to_string(), u.path().to_string())),
        );
        SourceDriver {
            adapter,
            delay: config.delay_for(adapter).max(min_delay),
            live: LiveConfig::new(config, config_path),
            allowed: Allowed {
                rules,
                feed_urls: m.feeds.iter().map(|f| f.url.to_string()).collect(),
                switched_off: m.feeds.iter().filter(|f| !config.feed_on(m.id, f)).map(|f| f.url.to_string()).collect(),
            },
            plan: FeedPlan::new(m.feeds.iter().map(|f| config.feed_on(m.id, f)).collect()),
            paged_read: PagedRead::new(pages_cap),
            bodies: Vec::new(),
            take_in: TakeIn { adapter, withdraw_guard: config.withdraw_guard(m.id) },
            done: false,
            report: SourceReport::new(m.id, SourceStatus::Ok),
            busy_ms: 0,
            notes: Vec::new(),
            saw_anomaly: false,
            bounds,
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

    /// The source's line of the run's report.
    pub(super) fn finish(mut self) -> SourceReport {
        self.report.duration_ms = self.busy_ms;
        self.report
    }

    /// A pass over the feeds fetched together has ended: nothing changed
    /// (every feed answered 304 or the same body: nothing is written but
    /// the fetch log and the run, P12); or some changed and the others are
    /// asked again in full, to merge; or every body is at hand: take them in.
    fn pass_ended(&mut self, store: &mut Store, req: &FetchRequest, what_to_do: &str, reporter: &mut dyn FetchReporter) {
        match self.plan.pass_ended() {
            PassEnd::Unchanged => self.end(SourceStatus::Unchanged, "every feed answered 304 or the same body as last time".into()),
            PassEnd::UnchangedAgain(feed) => {
                let url = self.adapter.manifest().feeds[feed].url;
                self.end(
                    SourceStatus::Failed,
                    format!("{url}: answered as unchanged to a request without validators; nothing taken in, will retry next run"),
                );
            }
            PassEnd::AskAgain => {}
            PassEnd::TakeIn => {
                let mut bodies = std::mem::take(&mut self.bodies);
                // In the manifest's order, whatever order they came in: the merge is
                // the same; a paged feed's pages in their own order.
                bodies.sort_by_key(|f| (f.feed, f.page));
                // Bodies fetched without validators: when every one is the body
                // taken in last time, nothing to do.
                if bodies.iter().all(|f| f.as_last_time(store)) {
                    self.end(SourceStatus::Unchanged, "every feed holds the same body as last time".into());
                    return;
                }
                self.take_in_and_end(store, bodies, req, true, what_to_do, reporter);
            }
        }
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
        let verdict = self.take_in.take_in(store, bodies, reporter).map(|TakenIn { verdict, record_errors, notes }| {
            self.report.record_errors = record_errors;
            self.notes.extend(notes);
            verdict
        });
        match verdict {
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
            Err(why) => self.setback(SourceStatus::Failed, why.to_string(), last_feed, what_to_do),
        }
    }
}
impl FetchDriver<Store> for SourceDriver {
    fn next_fetch(&mut self, store: &mut Store) -> Option<FetchRequest> {
        let m = self.adapter.manifest();
        if self.done {
            return None;
        }
        // The second pass (feeds fetched together): in full, without validators.
        let (index, conditional) = self.plan.next()?;
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
        let live = self.live.reload(self.adapter, reporter);
        let config = live.as_ref().unwrap_or(self.live.last_good());
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
        let url = self.adapter.manifest().feeds.get(self.plan.current()).map_or("", |f| f.url);
        self.bounds.why_stop(now_ms).map(|why| FetchOutcome::Skipped(format!("{url}: not requested: {why}; the next run fetches it")))
    }
}

impl SourceDriver {
    /// What `fetched` does with one result, timed by it.
    fn fetched_body(&mut self, store: &mut Store, req: FetchRequest, result: FetchResult, reporter: &mut dyn FetchReporter) {
        let m = self.adapter.manifest();
        self.report.not_modified += result.not_modified as u64;
        let feed_index = self.plan.current();
        let at = FeedAt { adapter: self.adapter, index: feed_index };
        let came = match self.paged_read.came(at, store, &req, result, &mut self.bodies, reporter) {
            Paged::Asking => return,
            came => came,
        };
        let last_feed = self.plan.advance();
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
        self.plan.unchanged();
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
