//! The run as one library use case: fetch and store every selected source
//! (`ingest::run`), translate what changed, record each source's line, finish
//! the run row, and return a typed report. Whatever happens after the run row
//! is begun, it is finished with its exit status, and every source's line is in
//! the report. `commands/run.rs` only parses arguments, holds the lock, shows
//! progress and prints.
//!
//! Not for the politeness rules (`http`), the storing rules (`store`) or
//! the translation rules (`translate`).

use crate::http::FetchReporter;
use crate::ingest::{RunBounds, RunOptions, RunReport};
use crate::output::Exit;
use crate::store::Store;
use crate::translate::plan::Options;
use crate::translate::plan::configured::engines;
use crate::translate::plan::step::Step;
use crate::translate::send::stats::TranslateStats;
use anyhow::Result;
use serde::Serialize;

/// What a run tells whoever watches it (a progress bar); every method is
/// optional. The fetch step's news (requests sent, the host waited for)
/// come through the scheduler's own [`FetchReporter`].
pub trait RunProgress: FetchReporter {
    /// Fetching and storing are over; translation starts (if any).
    fn fetched(&mut self) {}
    /// Texts translated so far, the total to do, words sent.
    fn translating(&mut self, _done: u64, _total: u64, _words: u64) {}
}

/// Nobody watching (a caller of the library that shows nothing).
pub struct Quiet;
impl FetchReporter for Quiet {}
impl RunProgress for Quiet {}

/// A whole run's result.
#[derive(Debug, Serialize)]
pub struct RunOutcome {
    #[serde(flatten)]
    pub report: RunReport,
    /// Totals of the translation step; `None` when it did not run.
    #[serde(flatten)]
    pub translation: Option<TranslateStats>,
    /// The translation step itself failed (not an engine: the database):
    /// events are stored and texts stay pending.
    pub translation_error: Option<String>,
    /// Why the run stopped before its end (its deadline, a signal): the sources
    /// not done are `skipped` and texts stay pending.
    pub interrupted: Option<String>,
    #[serde(skip)]
    pub exit: Exit,
}

/// Run once: fetch, store, translate (unless `translate` is false), record, finish.
pub fn run(store: &mut Store, opts: RunOptions<'_>, translate: bool, progress: &mut dyn RunProgress) -> Result<RunOutcome> {
    let settings = opts.config.settings.clone();
    let clock = opts.clock;
    let bounds = RunBounds::starting_at(clock.now_ms(), std::time::Duration::from_secs(settings.run_deadline_secs));
    let mut report = crate::ingest::run_within(store, opts, bounds, progress)?;
    progress.fetched();
    let mut translation = None;
    let mut translation_error = None;
    // The translation step's own failure: the database (exit 4), or the
    // system refusing a thread or a process (exit 6).
    let mut translation_exit = Exit::Internal;
    // Checked between the steps too: past the deadline, texts wait for the next run.
    let mut interrupted = bounds.why_stop(clock.now_ms());
    let stopped_before_translating = translate && interrupted.is_some() && settings.translator != crate::vocab::Translator::None;
    let translate = translate && interrupted.is_none();
    if translate && let Some(mut engines) = engines(&settings) {
        // Translate after storing: a missing or failing engine leaves events
        // stored untranslated, counted as pending and retried next run.
        // Asked before every engine batch: a signal or the deadline stops the
        // step there, what is translated kept.
        let stop = || bounds.why_stop(clock.now_ms());
        let langs = settings.langs();
        let step = Step::new(&langs, &[]).with_options(Options::from_settings(&settings)).until(&stop);
        match engines.translate(store, &step, |p| progress.translating(p.done, p.total, p.words)) {
            Ok(stats) => {
                interrupted = interrupted.or_else(|| stats.interrupted.clone());
                for s in report.sources.iter_mut() {
                    if let Some(c) = stats.per_source.get(&s.id) {
                        (s.translated, s.translation_cache_hits, s.translation_pending) = (c.translated, c.cache_hits, c.pending);
                    }
                }
                translation = Some(stats);
            }
            Err(e) => {
                translation_exit = crate::error::exit_for(&e);
                translation_error = Some(format!("{e:#}"));
            }
        }
    } else if translate && let Err(e) = store.apply_translation_memory(&settings.langs(), &[]) {
        // No engine: human corrections still reach new events with their text.
        translation_error = Some(format!("{e:#}"));
    } else if stopped_before_translating {
        // Stopped before translating (the deadline passed while fetching):
        // every text still untranslated waits for the next run, and is said so.
        match crate::translate::status::pending_by_source(store, &settings.langs()) {
            Ok(pending) => {
                let mut stats = TranslateStats { interrupted: interrupted.clone(), ..Default::default() };
                for (source, n) in pending {
                    stats.pending += n;
                    stats.per_source.entry(source).or_default().pending = n;
                }
                for s in report.sources.iter_mut() {
                    s.translation_pending = stats.per_source.get(&s.id).map_or(0, |c| c.pending);
                }
                translation = Some(stats);
            }
            Err(e) => translation_error = Some(format!("{e:#}")),
        }
    }
    let exit = if translation_error.is_some() {
        translation_exit
    } else if interrupted.is_some() {
        Exit::Interrupted
    } else if report.any_problem() {
        Exit::SourceProblem
    } else {
        Exit::Ok
    };
    // Recording can fail too (a full disk): the run row is still finished.
    let recorded = report.sources.iter().try_for_each(|s| store.record_source_translation(report.run_id, s));
    store.finish_run(report.run_id, exit.code() as i32)?;
    recorded?;
    Ok(RunOutcome { report, translation, translation_error, interrupted, exit })
}
